//! The SPDY/3 header-compression dictionary: both directions of a session start their zlib
//! stream with it (SPDY/3 spec §2.6.10.1, draft-mbelshe-httpbis-spdy-00; the same bytes are
//! used by SPDY/3.1). A zlib stream that uses it announces dictionary id `0xe3c6a7c2` (its
//! Adler-32) after the `78 f9` header, as kubectl's first SYN_STREAM shows
//! (`docs/protocols.md` §4.2, `78f9e3c6…`).

/// The 1423 dictionary bytes, transcribed from the spec's `SPDY_dictionary_txt` table: HTTP
/// method, header and status words with 4-byte big-endian length prefixes, then status lines,
/// month and day names and common content types.
pub const DICTIONARY: &[u8; 1423] = b"\
    \0\0\0\x07options\0\0\0\x04head\0\0\0\x04post\0\0\0\x03put\0\0\0\x06delete\0\0\0\x05\
    trace\0\0\0\x06accept\0\0\0\x0eaccept-charset\0\0\0\x0faccept-encoding\0\0\0\x0facce\
    pt-language\0\0\0\x0daccept-ranges\0\0\0\x03age\0\0\0\x05allow\0\0\0\x0dauthorizatio\
    n\0\0\0\x0dcache-control\0\0\0\x0aconnection\0\0\0\x0ccontent-base\0\0\0\x10content-\
    encoding\0\0\0\x10content-language\0\0\0\x0econtent-length\0\0\0\x10content-location\
    \0\0\0\x0bcontent-md5\0\0\0\x0dcontent-range\0\0\0\x0ccontent-type\0\0\0\x04date\0\0\
    \0\x04etag\0\0\0\x06expect\0\0\0\x07expires\0\0\0\x04from\0\0\0\x04host\0\0\0\x08if-\
    match\0\0\0\x11if-modified-since\0\0\0\x0dif-none-match\0\0\0\x08if-range\0\0\0\x13i\
    f-unmodified-since\0\0\0\x0dlast-modified\0\0\0\x08location\0\0\0\x0cmax-forwards\0\
    \0\0\x06pragma\0\0\0\x12proxy-authenticate\0\0\0\x13proxy-authorization\0\0\0\x05ran\
    ge\0\0\0\x07referer\0\0\0\x0bretry-after\0\0\0\x06server\0\0\0\x02te\0\0\0\x07traile\
    r\0\0\0\x11transfer-encoding\0\0\0\x07upgrade\0\0\0\x0auser-agent\0\0\0\x04vary\0\0\
    \0\x03via\0\0\0\x07warning\0\0\0\x10www-authenticate\0\0\0\x06method\0\0\0\x03get\0\
    \0\0\x06status\0\0\0\x06200 OK\0\0\0\x07version\0\0\0\x08HTTP/1.1\0\0\0\x03url\0\0\0\
    \x06public\0\0\0\x0aset-cookie\0\0\0\x0akeep-alive\0\0\0\x06origin100101201202205206\
    300302303304305306307402405406407408409410411412413414415416417502504505203 Non-Auth\
    oritative Information204 No Content301 Moved Permanently400 Bad Request401 Unauthori\
    zed403 Forbidden404 Not Found500 Internal Server Error501 Not Implemented503 Service\
    \x20UnavailableJan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 Mon, Tue, Wed,\
    \x20Thu, Fri, Sat, Sun, GMTchunked,text/html,image/png,image/jpg,image/gif,application/\
    xml,application/xhtml+xml,text/plain,text/javascript,publicprivatemax-age=gzip,defla\
    te,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.";

/// Adler-32 of [`DICTIONARY`], the `DICTID` a zlib stream carries when it uses it.
pub const DICTIONARY_ID: u32 = 0xe3c6_a7c2;
