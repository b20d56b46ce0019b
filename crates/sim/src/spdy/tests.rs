//! Unit tests of the frame codec and header blocks with real bytes: the frame header kubectl
//! sends first (`docs/protocols.md` §4.2 / Appendix A.9), blocks compressed by C zlib
//! (Python's `zlib.compressobj(zdict=…)`, sync-flushed) and the dictionary's id.

use bytes::{Bytes, BytesMut};

use super::dictionary::{DICTIONARY, DICTIONARY_ID};
use super::frame::{self, FLAG_FIN, Frame, FrameError, Setting};
use super::headers::{Deflater, Headers, Inflater, decode_block, encode_block};

/// kubectl's first SYN_STREAM after a local connection, up to the header block: the frame
/// header and fields of the captured WebSocket messages `8003` `0001` `0000003e` `00000001`
/// `00000000` `00` `00` (kubectl 1.33, `docs/protocols.md` §4.2), with the length (`0x3d`) of
/// kubectl 1.27's 51-byte block below.
const CAPTURED_SYN_HEAD: [u8; 18] = [
    0x80, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x3d, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00,
];

/// The header blocks of kubectl 1.27.16's first four SYN_STREAMs (one zlib stream) for
/// `port-forward pod/hello 18183:8081 18184:9999` and one connection to each port, captured
/// from the simulator's trace log: error and data stream of request 0 (port 8081), then of
/// request 1 (port 9999).
const KUBECTL_BLOCKS: [&str; 4] = [
    "78f9e3c6a7c202253a703a2b294a4dcc851625aca9a0808614cb45e01c606160014a9f9c459068cc04256f460300000000ffff",
    "826ac61445350e543225a29b06000000ffff",
    "22d2624b4b4b4b0c2b0c01000000ffff",
    "826a26ac0a8b4300000000ffff",
];

/// `{port: 8081, requestid: 0, streamtype: error}` then `{…, streamtype: data}` compressed by C
/// zlib with the SPDY/3 dictionary, each block sync-flushed (one zlib stream).
const ZLIB_ERROR_BLOCK: &str = "78bbe3c6a7c202253a48f95b044eea160616a084c8590489af4c503a663400a7c492a2d4c45c6861c39a0a8a0a00000000ffff";
const ZLIB_DATA_BLOCK: &str = "225333a8a44a04000000ffff";

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn pairs(h: &Headers) -> Vec<(&str, &str)> {
    h.0.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect()
}

#[test]
fn dictionary_is_the_spdy3_one() {
    assert_eq!(DICTIONARY.len(), 1423);
    let mut c = flate2::Compress::new(flate2::Compression::default(), true);
    assert_eq!(c.set_dictionary(DICTIONARY).expect("sets"), DICTIONARY_ID);
    assert!(DICTIONARY.starts_with(b"\0\0\0\x07options\0\0\0\x04head"));
    assert!(DICTIONARY.ends_with(b",enq=0."));
}

#[test]
fn captured_syn_stream_decodes() {
    let mut wire = BytesMut::from(&CAPTURED_SYN_HEAD[..]);
    wire.extend_from_slice(&hex(KUBECTL_BLOCKS[0]));
    let f = frame::decode(&mut wire).expect("valid").expect("whole");
    assert!(wire.is_empty());
    let Frame::SynStream {
        stream_id,
        associated_to,
        priority,
        flags,
        block,
    } = f
    else {
        panic!("not a SYN_STREAM: {f:?}");
    };
    assert_eq!((stream_id, associated_to, priority, flags), (1, 0, 0, 0));
    let h = Inflater::new().decompress(&block).expect("inflates");
    assert_eq!(
        pairs(&h),
        [
            ("streamtype", "error"),
            ("port", "8081"),
            ("requestid", "0")
        ]
    );
}

#[test]
fn kubectl_blocks_inflate_in_sequence() {
    let mut inf = Inflater::new();
    let got: Vec<Headers> = KUBECTL_BLOCKS
        .iter()
        .map(|b| inf.decompress(&hex(b)).expect("inflates"))
        .collect();
    let want = [
        ("error", "8081", "0"),
        ("data", "8081", "0"),
        ("error", "9999", "1"),
        ("data", "9999", "1"),
    ];
    for (h, (kind, port, id)) in got.iter().zip(want) {
        assert_eq!(h.0.len(), 3, "{h:?}");
        assert_eq!(
            (h.get("streamType"), h.get("port"), h.get("requestID")),
            (Some(kind), Some(port), Some(id))
        );
    }
}

#[test]
fn partial_frames_wait_for_more_bytes() {
    let mut wire = BytesMut::from(&CAPTURED_SYN_HEAD[..8]);
    assert_eq!(frame::decode(&mut wire), Ok(None));
    assert_eq!(wire.len(), 8, "nothing consumed");
}

#[test]
fn c_zlib_blocks_inflate_in_sequence() {
    let mut inf = Inflater::new();
    let first = inf.decompress(&hex(ZLIB_ERROR_BLOCK)).expect("first");
    assert_eq!(first.get("streamType"), Some("error"));
    let second = inf.decompress(&hex(ZLIB_DATA_BLOCK)).expect("second");
    assert_eq!(
        pairs(&second),
        [("port", "8081"), ("requestid", "0"), ("streamtype", "data")]
    );
}

#[test]
fn our_blocks_announce_the_dictionary_and_round_trip() {
    let mut def = Deflater::new();
    let mut inf = Inflater::new();
    let a = Headers::from_pairs(&[("streamType", "stdout"), ("X", "a\0b")]);
    let first = def.compress(&a);
    assert_eq!(first[0], 0x78);
    assert_eq!(first[1] & 0x20, 0x20, "FDICT set");
    assert_eq!(&first[2..6], &DICTIONARY_ID.to_be_bytes());
    assert!(first.ends_with(&[0, 0, 0xff, 0xff]), "sync flush");
    assert_eq!(
        pairs(&inf.decompress(&first).expect("first")),
        [("streamtype", "stdout"), ("x", "a\0b")]
    );
    let empty = def.compress(&Headers::default());
    assert_eq!(inf.decompress(&empty).expect("empty"), Headers::default());
}

#[test]
fn header_block_layout_is_counted_and_length_prefixed() {
    let h = Headers::from_pairs(&[("port", "80")]);
    let raw = encode_block(&h);
    assert_eq!(raw, b"\0\0\0\x01\0\0\0\x04port\0\0\0\x0280");
    assert_eq!(decode_block(&raw), Ok(h));
    assert!(decode_block(&raw[..raw.len() - 1]).is_err());
    assert!(decode_block(b"\0\0\0\x02\0\0\0\x01a\0\0\0\x01b").is_err());
}

#[test]
fn garbage_does_not_inflate() {
    assert!(
        Inflater::new()
            .decompress(b"\x78\xf9\0\0\0\0garbage")
            .is_err()
    );
}

fn round_trip(f: Frame) -> Vec<u8> {
    let mut out = BytesMut::new();
    frame::encode(&f, &mut out);
    let wire = out.to_vec();
    let back = frame::decode(&mut out).expect("valid").expect("whole");
    assert_eq!(back, f);
    assert!(out.is_empty());
    wire
}

#[test]
fn control_frames_round_trip_with_spec_layout() {
    let block = Bytes::from_static(b"zz");
    assert_eq!(
        round_trip(Frame::SynReply {
            stream_id: 1,
            flags: 0,
            block: block.clone(),
        }),
        [0x80, 3, 0, 2, 0, 0, 0, 6, 0, 0, 0, 1, b'z', b'z']
    );
    assert_eq!(
        round_trip(Frame::RstStream {
            stream_id: 3,
            status: 5
        }),
        [0x80, 3, 0, 3, 0, 0, 0, 8, 0, 0, 0, 3, 0, 0, 0, 5]
    );
    assert_eq!(
        round_trip(Frame::Ping { id: 1 }),
        [0x80, 3, 0, 6, 0, 0, 0, 4, 0, 0, 0, 1]
    );
    assert_eq!(
        round_trip(Frame::GoAway {
            last_good_stream_id: 7,
            status: 0
        }),
        [0x80, 3, 0, 7, 0, 0, 0, 8, 0, 0, 0, 7, 0, 0, 0, 0]
    );
    assert_eq!(
        round_trip(Frame::WindowUpdate {
            stream_id: 0,
            delta: 32768
        }),
        [0x80, 3, 0, 9, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0x80, 0]
    );
    assert_eq!(
        round_trip(Frame::Settings {
            flags: 0,
            entries: vec![Setting {
                flags: 1,
                id: 7,
                value: 65536
            }],
        }),
        [
            0x80, 3, 0, 4, 0, 0, 0, 12, 0, 0, 0, 1, 1, 0, 0, 7, 0, 1, 0, 0
        ]
    );
    round_trip(Frame::Headers {
        stream_id: 5,
        flags: FLAG_FIN,
        block,
    });
    round_trip(Frame::SynStream {
        stream_id: 9,
        associated_to: 0,
        priority: 7,
        flags: FLAG_FIN,
        block: Bytes::from_static(b"x"),
    });
}

#[test]
fn data_frames_carry_fin_and_payload() {
    let wire = round_trip(Frame::Data {
        stream_id: 3,
        flags: FLAG_FIN,
        data: Bytes::from_static(b"hi"),
    });
    assert_eq!(wire, [0, 0, 0, 3, 1, 0, 0, 2, b'h', b'i']);
    let f = Frame::Data {
        stream_id: 1,
        flags: FLAG_FIN,
        data: Bytes::new(),
    };
    assert!(f.fin());
}

#[test]
fn bad_versions_and_lengths_are_errors() {
    let mut v2 = BytesMut::from(&[0x80, 2, 0, 6, 0, 0, 0, 4, 0, 0, 0, 1][..]);
    assert_eq!(frame::decode(&mut v2), Err(FrameError::Version(2)));
    let mut short_ping = BytesMut::from(&[0x80, 3, 0, 6, 0, 0, 0, 2, 0, 1][..]);
    assert!(matches!(
        frame::decode(&mut short_ping),
        Err(FrameError::Malformed { kind: 6, len: 2 })
    ));
    let mut unknown = BytesMut::from(&[0x80, 3, 0, 10, 0, 0, 0, 1, 9][..]);
    assert!(matches!(
        frame::decode(&mut unknown),
        Ok(Some(Frame::Other { kind: 10, .. }))
    ));
}
