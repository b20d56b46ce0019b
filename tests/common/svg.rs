//! `Buffer` → SVG (test-only): one `<rect>` per background run, one `<text>` per style run,
//! monospace, a fixed ANSI palette, so screenshots are deterministic and diffable.

use std::fmt::Write as _;

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

/// Cell width and height in SVG user units.
const CELL_W: f64 = 8.4;
const CELL_H: f64 = 18.0;
const FONT_SIZE: f64 = 14.0;
/// Default colours (a dark terminal).
const DEFAULT_FG: &str = "#d4d4d4";
const DEFAULT_BG: &str = "#1e1e1e";

/// The fixed palette for the 16 ANSI colours (and RGB / indexed passthrough).
fn hex(color: Color, default: &'static str) -> String {
    let named = match color {
        Color::Reset => default,
        Color::Black => "#000000",
        Color::Red => "#cd3131",
        Color::Green => "#0dbc79",
        Color::Yellow => "#e5e510",
        Color::Blue => "#2472c8",
        Color::Magenta => "#bc3fbc",
        Color::Cyan => "#11a8cd",
        Color::Gray => "#cccccc",
        Color::DarkGray => "#5a5a5a",
        Color::LightRed => "#f14c4c",
        Color::LightGreen => "#23d18b",
        Color::LightYellow => "#f5f543",
        Color::LightBlue => "#3b8eea",
        Color::LightMagenta => "#d670d6",
        Color::LightCyan => "#29b8db",
        Color::White => "#e5e5e5",
        Color::Rgb(r, g, b) => return format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Indexed(i) => return format!("#{i:02x}{i:02x}{i:02x}"),
    };
    named.to_owned()
}

#[derive(Clone, PartialEq)]
struct Look {
    fg: String,
    bg: String,
    bold: bool,
    underline: bool,
}

fn look(buf: &Buffer, x: u16, y: u16) -> Look {
    let cell = &buf[(x, y)];
    let mut fg = hex(cell.fg, DEFAULT_FG);
    let mut bg = hex(cell.bg, DEFAULT_BG);
    if cell.modifier.contains(Modifier::REVERSED) {
        std::mem::swap(&mut fg, &mut bg);
    }
    Look {
        fg,
        bg,
        bold: cell.modifier.contains(Modifier::BOLD),
        underline: cell.modifier.contains(Modifier::UNDERLINED),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Renders `buf` as a standalone SVG document.
pub fn to_svg(buf: &Buffer) -> String {
    let (w, h) = (buf.area.width, buf.area.height);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" viewBox="0 0 {:.1} {:.1}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="{FONT_SIZE}">"#,
        f64::from(w) * CELL_W,
        f64::from(h) * CELL_H,
        f64::from(w) * CELL_W,
        f64::from(h) * CELL_H,
    );
    let _ = writeln!(
        out,
        r#"<rect width="100%" height="100%" fill="{DEFAULT_BG}"/>"#
    );
    for y in 0..h {
        let top = f64::from(y) * CELL_H;
        // Background runs.
        let mut x = 0;
        while x < w {
            let bg = look(buf, x, y).bg;
            let start = x;
            while x < w && look(buf, x, y).bg == bg {
                x += 1;
            }
            if bg != DEFAULT_BG {
                let _ = writeln!(
                    out,
                    r#"<rect x="{:.1}" y="{top:.1}" width="{:.1}" height="{CELL_H}" fill="{bg}"/>"#,
                    f64::from(start) * CELL_W,
                    f64::from(x - start) * CELL_W,
                );
            }
        }
        // Style runs of text.
        let mut x = 0;
        while x < w {
            let l = look(buf, x, y);
            let start = x;
            let mut text = String::new();
            while x < w && look(buf, x, y) == l {
                text.push_str(buf[(x, y)].symbol());
                x += 1;
            }
            if text.trim().is_empty() {
                continue;
            }
            let mut attrs = format!(r#"fill="{}""#, l.fg);
            if l.bold {
                attrs.push_str(r#" font-weight="bold""#);
            }
            if l.underline {
                attrs.push_str(r#" text-decoration="underline""#);
            }
            let _ = writeln!(
                out,
                r#"<text x="{:.1}" y="{:.1}" textLength="{:.1}" lengthAdjust="spacingAndGlyphs" xml:space="preserve" {attrs}>{}</text>"#,
                f64::from(start) * CELL_W,
                top + CELL_H * 0.75,
                f64::from(x - start) * CELL_W,
                escape(&text),
            );
        }
    }
    out.push_str("</svg>\n");
    out
}
