//! Pod IPs: [`PodIps`] hands out addresses of the node's pod CIDR, a /16 such as
//! `10.244.0.0/16`, as a CNI's host-local IPAM does: each pod gets a free address, a removed
//! pod's address is free again, and after the last one the search wraps to the first. Every
//! address is a valid dotted quad (`docs/controllers.md`, "Pod IPs").

use std::collections::BTreeSet;

/// The address allocator of one node's pod CIDR `A.B.0.0/16`: offsets `2 ..= 65534` within it
/// (`A.B.0.2` … `A.B.255.254`), skipping those whose last octet is 0 or 255 so no address looks
/// like a /24's network or broadcast address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PodIps {
    /// The CIDR's first two octets.
    net: [u8; 2],
    /// The offset the next search starts at.
    next: u16,
    /// The offsets held by pods.
    used: BTreeSet<u16>,
}

/// The first offset handed out (`A.B.0.1` is left to the node's bridge).
const FIRST: u16 = 2;
/// The last offset handed out (`A.B.255.254`).
const LAST: u16 = 0xfffe;

impl PodIps {
    /// The allocator for `prefix`: `A.B.` (`10.244.` starts at `10.244.0.2`) or `A.B.C.` (starts
    /// at `A.B.C.2`, within `A.B.0.0/16`); the trailing dot is optional. A prefix that is not
    /// two or three octets falls back to `10.244.0.0/16`.
    pub(crate) fn new(prefix: &str) -> Self {
        let octets: Option<Vec<u8>> = prefix
            .trim_end_matches('.')
            .split('.')
            .map(|o| o.parse().ok())
            .collect();
        let (net, third) = match octets.as_deref() {
            Some([a, b]) => ([*a, *b], 0),
            Some([a, b, c]) => ([*a, *b], *c),
            _ => ([10, 244], 0),
        };
        PodIps {
            net,
            next: (u16::from(third) << 8) | FIRST,
            used: BTreeSet::new(),
        }
    }

    /// Whether `offset` is one that is handed out.
    fn usable(offset: u16) -> bool {
        let host = offset & 0xff;
        (FIRST..=LAST).contains(&offset) && host != 0 && host != 0xff
    }

    /// The next free address (searching from after the last one given, wrapping), now held;
    /// `None` when every address is held.
    pub(crate) fn allocate(&mut self) -> Option<String> {
        let mut offset = self.next;
        for _ in 0..=u32::from(u16::MAX) {
            if Self::usable(offset) && !self.used.contains(&offset) {
                self.used.insert(offset);
                self.next = if offset >= LAST { FIRST } else { offset + 1 };
                return Some(self.text(offset));
            }
            offset = if offset >= LAST { FIRST } else { offset + 1 };
        }
        None
    }

    /// Frees `ip` (an address [`PodIps::allocate`] gave); others are ignored.
    pub(crate) fn release(&mut self, ip: &str) {
        let octets: Option<Vec<u8>> = ip.split('.').map(|o| o.parse().ok()).collect();
        if let Some([a, b, c, d]) = octets.as_deref()
            && [*a, *b] == self.net
        {
            self.used.remove(&u16::from_be_bytes([*c, *d]));
        }
    }

    /// The dotted quad of `offset`.
    fn text(&self, offset: u16) -> String {
        let [c, d] = offset.to_be_bytes();
        format!("{}.{}.{c}.{d}", self.net[0], self.net[1])
    }
}

#[cfg(test)]
mod tests {
    use super::PodIps;

    /// Addresses stay dotted quads past 250 pods, freed ones come back, and the search wraps.
    #[test]
    fn addresses_are_valid_past_a_24_and_are_reused() {
        let mut ips = PodIps::new("10.244.0.");
        let first: Vec<String> = (0..300).filter_map(|_| ips.allocate()).collect();
        assert_eq!(first[0], "10.244.0.2");
        assert_eq!(first[252], "10.244.0.254");
        assert_eq!(first[253], "10.244.1.1");
        assert_eq!(first[299], "10.244.1.47");
        for ip in &first {
            let octets: Vec<u8> = ip.split('.').map(|o| o.parse().expect("octet")).collect();
            assert_eq!(octets.len(), 4, "{ip}");
            assert!(octets[3] != 0 && octets[3] != 255, "{ip}");
        }
        // After the /16's last address the search wraps to its first.
        let mut small = PodIps::new("10.244.255.");
        let a = small.allocate().expect("free");
        assert_eq!(a, "10.244.255.2");
        let held: Vec<String> = (0..252).filter_map(|_| small.allocate()).collect();
        assert_eq!(held.last().map(String::as_str), Some("10.244.255.254"));
        small.release("10.244.255.2");
        assert_eq!(small.allocate().as_deref(), Some("10.244.0.2"));
        // The three-octet prefix of the tests' kubelet starts in its own /24.
        assert_eq!(
            PodIps::new("172.20.172").allocate().as_deref(),
            Some("172.20.172.2")
        );
    }

    /// With every address held, none is given; releasing one makes it the next.
    #[test]
    fn a_full_range_gives_nothing_until_one_is_freed() {
        let mut ips = PodIps::new("10.1.");
        let mut last = None;
        while let Some(ip) = ips.allocate() {
            last = Some(ip);
        }
        assert_eq!(last.as_deref(), Some("10.1.255.254"));
        ips.release("10.1.7.9");
        assert_eq!(ips.allocate().as_deref(), Some("10.1.7.9"));
        assert_eq!(ips.allocate(), None);
    }
}
