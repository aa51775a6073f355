//! Where a server listens: `--addr` and `--live` read ([`parse_addr`]), the URL printed, and
//! the warning for pages served beyond loopback.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// The address pages are served on when none is given: loopback, a port the system picks (the
/// URL is printed).
pub const DEFAULT_ADDR: SocketAddr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0);

/// The address of `--live ADDR` and `--addr ADDR`: `PORT` (on loopback), `HOST:PORT` or
/// `[V6]:PORT`; none: [`DEFAULT_ADDR`]. Only an address given explicitly is other than loopback.
pub fn parse_addr(text: Option<&str>) -> Result<SocketAddr, String> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(DEFAULT_ADDR);
    };
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    if let Some(port) = text.strip_prefix("localhost:") {
        return port
            .parse::<u16>()
            .map(|p| SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), p))
            .map_err(|_| format!("'{text}': the port must be a number 0..65535"));
    }
    text.parse::<SocketAddr>().map_err(|_| {
        format!("'{text}': not an address; give PORT, HOST:PORT (an IP address) or [IPV6]:PORT")
    })
}

/// `addr`, or for an unspecified address the loopback address of its family with its port.
pub(super) fn reachable(mut addr: SocketAddr) -> SocketAddr {
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => addr.set_ip(IpAddr::V4(Ipv4Addr::LOCALHOST)),
        IpAddr::V6(ip) if ip.is_unspecified() => addr.set_ip(IpAddr::V6(Ipv6Addr::LOCALHOST)),
        _ => {}
    }
    addr
}

/// The warning for pages served on `addr` when it is not loopback.
pub(super) fn exposure(addr: SocketAddr) -> Option<String> {
    if addr.ip().is_loopback() {
        return None;
    }
    let port = addr.port();
    let whom = if addr.ip().is_unspecified() {
        format!("listening on {addr}, every network interface of this machine")
    } else {
        format!("listening on {addr}")
    };
    Some(format!(
        "warning: {whom}: the pages are reachable from the network, by anyone who can connect \
         to this machine's port {port}, with no password; give 127.0.0.1:{port} (or PORT) to \
         keep them on this machine"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        assert_eq!(parse_addr(None).unwrap(), DEFAULT_ADDR);
        assert_eq!(
            parse_addr(Some("8080")).unwrap().to_string(),
            "127.0.0.1:8080"
        );
        assert_eq!(
            parse_addr(Some("localhost:9")).unwrap().to_string(),
            "127.0.0.1:9"
        );
        assert_eq!(
            parse_addr(Some("0.0.0.0:80")).unwrap().to_string(),
            "0.0.0.0:80"
        );
        assert_eq!(parse_addr(Some("[::1]:7")).unwrap().to_string(), "[::1]:7");
        let e = parse_addr(Some("example.org:80")).unwrap_err();
        assert!(
            e.contains("example.org:80") && e.contains("HOST:PORT"),
            "{e}"
        );
        assert!(parse_addr(Some("70000")).is_err());
    }

    #[test]
    fn urls_and_exposure_of_each_address() {
        let at = |a: &str| a.parse::<SocketAddr>().unwrap();
        assert_eq!(reachable(at("0.0.0.0:80")), at("127.0.0.1:80"));
        assert_eq!(reachable(at("[::]:80")), at("[::1]:80"));
        assert_eq!(reachable(at("127.0.0.2:80")), at("127.0.0.2:80"));
        for quiet in ["127.0.0.1:80", "127.0.0.2:80", "[::1]:80"] {
            assert_eq!(exposure(at(quiet)), None, "{quiet}");
        }
        for exposed in ["0.0.0.0:8080", "[::]:8080", "192.168.1.2:8080"] {
            let w = exposure(at(exposed)).unwrap();
            assert!(
                w.contains(exposed) && w.contains("reachable from the network"),
                "{w}"
            );
            assert!(w.contains("127.0.0.1:8080"), "the way back: {w}");
        }
    }
}
