//! Whether a display can be reached, asked before the window's event loop
//! is built: winit panics with a backtrace when it cannot open one
//! ("Failed to build event loop: ... XOpenDisplayFailed"), which tells a
//! person nothing. `main` says what is missing in one line and exits with
//! a non-zero code instead.
//!
//! The check connects to the display server's socket the way its client
//! libraries do: Wayland's `$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY` (or an
//! absolute `WAYLAND_DISPLAY`), X11's `DISPLAY` as `[host]:N[.S]`: no host
//! (or `unix`) is the local socket `/tmp/.X11-unix/XN` (the abstract one
//! of the same name on Linux as well), a host is TCP port 6000 + N, a path
//! (macOS's launchd) is that socket. Authorisation is left to the real
//! connection: a server that refuses it still fails in winit.

#[cfg(all(unix, not(target_os = "macos")))]
use std::path::{Path, PathBuf};
#[cfg(all(unix, not(target_os = "macos")))]
use std::time::Duration;

/// How long a TCP connection to a remote X server may take.
#[cfg(all(unix, not(target_os = "macos")))]
const TCP_TIMEOUT: Duration = Duration::from_secs(3);

/// Platforms without X11 or Wayland (Windows, macOS) have a display.
#[cfg(not(all(unix, not(target_os = "macos"))))]
pub fn check() -> Result<(), String> {
    Ok(())
}

/// `Ok` when a display server answers; otherwise one line saying which
/// display was tried and why it failed.
#[cfg(all(unix, not(target_os = "macos")))]
pub fn check() -> Result<(), String> {
    let wayland = std::env::var("WAYLAND_DISPLAY")
        .ok()
        .filter(|w| !w.is_empty());
    let x11 = std::env::var("DISPLAY").ok().filter(|d| !d.is_empty());
    let mut tried = Vec::new();
    if let Some(w) = &wayland {
        let path = wayland_socket(w, std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from));
        match path {
            Some(p) => match std::os::unix::net::UnixStream::connect(&p) {
                Ok(_) => return Ok(()),
                Err(e) => tried.push(format!("Wayland display {w} ({}: {e})", p.display())),
            },
            None => tried.push(format!("Wayland display {w} (XDG_RUNTIME_DIR is not set)")),
        }
    }
    if let Some(d) = &x11 {
        match x11_reachable(d) {
            Ok(()) => return Ok(()),
            Err(e) => tried.push(format!("X display {d} ({e})")),
        }
    }
    if tried.is_empty() {
        return Err("no display: neither DISPLAY nor WAYLAND_DISPLAY is set \
                    (run it in a desktop session, or under Xvfb)"
            .into());
    }
    Err(format!("cannot open a window: {}", tried.join("; ")))
}

/// The Wayland socket for `WAYLAND_DISPLAY`, if its directory is known.
#[cfg(all(unix, not(target_os = "macos")))]
fn wayland_socket(name: &str, runtime: Option<PathBuf>) -> Option<PathBuf> {
    let p = Path::new(name);
    if p.is_absolute() {
        return Some(p.to_path_buf());
    }
    runtime.map(|r| r.join(name))
}

/// Where an X display is served.
#[cfg(all(unix, not(target_os = "macos")))]
#[derive(Debug, PartialEq, Eq)]
enum XAddress {
    /// The local socket of display N.
    Local(u32),
    /// TCP on a host, display N.
    Tcp(String, u32),
    /// A socket at a path.
    Path(PathBuf),
}

/// Parses `DISPLAY`; an error says what is wrong with it.
#[cfg(all(unix, not(target_os = "macos")))]
fn x11_address(display: &str) -> Result<XAddress, String> {
    if display.starts_with('/') {
        return Ok(XAddress::Path(PathBuf::from(display)));
    }
    let (host, rest) = display
        .rsplit_once(':')
        .ok_or_else(|| "not of the form [host]:N".to_string())?;
    let number = rest.split('.').next().unwrap_or("");
    let n: u32 = number
        .parse()
        .map_err(|_| format!("'{number}' is not a display number"))?;
    let host = host.trim_start_matches("tcp/");
    Ok(match host {
        "" | "unix" => XAddress::Local(n),
        h => XAddress::Tcp(h.to_string(), n),
    })
}

/// Connects to the X display's socket, dropping the connection at once.
#[cfg(all(unix, not(target_os = "macos")))]
fn x11_reachable(display: &str) -> Result<(), String> {
    use std::os::unix::net::UnixStream;
    match x11_address(display)? {
        XAddress::Local(n) => {
            let path = format!("/tmp/.X11-unix/X{n}");
            let file = UnixStream::connect(&path);
            if file.is_ok() {
                return Ok(());
            }
            #[cfg(target_os = "linux")]
            {
                use std::os::linux::net::SocketAddrExt;
                if let Ok(addr) = std::os::unix::net::SocketAddr::from_abstract_name(&path)
                    && UnixStream::connect_addr(&addr).is_ok()
                {
                    return Ok(());
                }
            }
            Err(format!(
                "no X server listens on {path}: {}",
                file.err().map(|e| e.to_string()).unwrap_or_default()
            ))
        }
        XAddress::Tcp(host, n) => {
            use std::net::ToSocketAddrs;
            let port = 6000 + n as u16;
            let addrs = (host.as_str(), port)
                .to_socket_addrs()
                .map_err(|e| format!("{host}: {e}"))?;
            let mut last = format!("{host}:{port}: no address");
            for a in addrs {
                match std::net::TcpStream::connect_timeout(&a, TCP_TIMEOUT) {
                    Ok(_) => return Ok(()),
                    Err(e) => last = format!("{a}: {e}"),
                }
            }
            Err(last)
        }
        XAddress::Path(p) => UnixStream::connect(&p)
            .map(|_| ())
            .map_err(|e| format!("{}: {e}", p.display())),
    }
}

#[cfg(all(test, unix, not(target_os = "macos")))]
mod tests {
    use super::*;

    #[test]
    fn display_names_parse_as_x_clients_read_them() {
        assert_eq!(x11_address(":0"), Ok(XAddress::Local(0)));
        assert_eq!(x11_address(":12.1"), Ok(XAddress::Local(12)));
        assert_eq!(x11_address("unix:3"), Ok(XAddress::Local(3)));
        assert_eq!(
            x11_address("box.lan:2.0"),
            Ok(XAddress::Tcp("box.lan".into(), 2))
        );
        assert_eq!(
            x11_address("/private/tmp/launch/org.xquartz:0"),
            Ok(XAddress::Path("/private/tmp/launch/org.xquartz:0".into()))
        );
        assert!(x11_address("nonsense").is_err());
        assert!(x11_address(":x").is_err());
    }

    #[test]
    fn a_display_nobody_serves_is_an_error_naming_it() {
        // A local display number no server uses (the socket file is absent).
        let n = (9000..9999)
            .find(|n| !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists())
            .expect("a free display number");
        let err = x11_reachable(&format!(":{n}")).unwrap_err();
        assert!(err.contains(&format!("X{n}")), "{err}");
    }

    #[test]
    fn a_relative_wayland_name_lives_in_the_runtime_dir() {
        assert_eq!(
            wayland_socket("wayland-0", Some("/run/user/1".into())),
            Some(PathBuf::from("/run/user/1/wayland-0"))
        );
        assert_eq!(
            wayland_socket("/tmp/w", None),
            Some(PathBuf::from("/tmp/w"))
        );
        assert_eq!(wayland_socket("wayland-0", None), None);
    }
}
