//! `Buffer` → SVG (test-only): one `<rect>` per background run, one `<text>` per style run,
//! monospace, a fixed ANSI palette (a dark or a light terminal), so screenshots are
//! deterministic and diffable.

use std::fmt::Write as _;

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

/// Cell width and height in SVG user units.
const CELL_W: f64 = 8.4;
const CELL_H: f64 = 18.0;
const FONT_SIZE: f64 = 14.0;

/// A terminal's colours: its default foreground and background and its 16 ANSI colours
/// (0–7, then the bright 8–15).
pub struct Palette {
    pub fg: &'static str,
    pub bg: &'static str,
    pub ansi: [&'static str; 16],
}

/// A dark terminal (VS Code's dark palette).
pub const DARK: Palette = Palette {
    fg: "#d4d4d4",
    bg: "#1e1e1e",
    ansi: [
        "#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#cccccc",
        "#5a5a5a", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#e5e5e5",
    ],
};

/// A light terminal: black on white with GNOME Terminal's default (Tango) palette, whose
/// yellow and greys are as faint on white as they are in the terminal.
pub const LIGHT: Palette = Palette {
    fg: "#000000",
    bg: "#ffffff",
    ansi: [
        "#2e3436", "#cc0000", "#4e9a06", "#c4a000", "#3465a4", "#75507b", "#06989a", "#d3d7cf",
        "#555753", "#ef2929", "#8ae234", "#fce94f", "#729fcf", "#ad7fa8", "#34e2e2", "#eeeeec",
    ],
};

/// `color` in `palette` (`None` for the default colour), RGB / indexed passed through.
fn hex(color: Color, palette: &Palette) -> Option<String> {
    let i = match color {
        Color::Reset => return None,
        Color::Black => 0,
        Color::Red => 1,
        Color::Green => 2,
        Color::Yellow => 3,
        Color::Blue => 4,
        Color::Magenta => 5,
        Color::Cyan => 6,
        Color::Gray => 7,
        Color::DarkGray => 8,
        Color::LightRed => 9,
        Color::LightGreen => 10,
        Color::LightYellow => 11,
        Color::LightBlue => 12,
        Color::LightMagenta => 13,
        Color::LightCyan => 14,
        Color::White => 15,
        Color::Rgb(r, g, b) => return Some(format!("#{r:02x}{g:02x}{b:02x}")),
        Color::Indexed(i) => return Some(format!("#{i:02x}{i:02x}{i:02x}")),
    };
    Some(palette.ansi[i].to_owned())
}

#[derive(Clone, PartialEq)]
struct Look {
    fg: String,
    bg: String,
    bold: bool,
    dim: bool,
    underline: bool,
}

fn look(buf: &Buffer, x: u16, y: u16, palette: &Palette) -> Look {
    let cell = &buf[(x, y)];
    let mut fg = hex(cell.fg, palette).unwrap_or_else(|| palette.fg.to_owned());
    let mut bg = hex(cell.bg, palette).unwrap_or_else(|| palette.bg.to_owned());
    if cell.modifier.contains(Modifier::REVERSED) {
        std::mem::swap(&mut fg, &mut bg);
    }
    Look {
        fg,
        bg,
        bold: cell.modifier.contains(Modifier::BOLD),
        dim: cell.modifier.contains(Modifier::DIM),
        underline: cell.modifier.contains(Modifier::UNDERLINED),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Renders `buf` as a standalone SVG document on a dark terminal.
pub fn to_svg(buf: &Buffer) -> String {
    to_svg_with(buf, &DARK)
}

/// Renders `buf` as a standalone SVG document in `palette`; dim text (SGR 2) is drawn at 60 %
/// opacity, as terminals blend it towards the background.
pub fn to_svg_with(buf: &Buffer, palette: &Palette) -> String {
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
        r#"<rect width="100%" height="100%" fill="{}"/>"#,
        palette.bg
    );
    for y in 0..h {
        let top = f64::from(y) * CELL_H;
        // Background runs.
        let mut x = 0;
        while x < w {
            let bg = look(buf, x, y, palette).bg;
            let start = x;
            while x < w && look(buf, x, y, palette).bg == bg {
                x += 1;
            }
            if bg != palette.bg {
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
            let l = look(buf, x, y, palette);
            let start = x;
            let mut text = String::new();
            while x < w && look(buf, x, y, palette) == l {
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
            if l.dim {
                attrs.push_str(r#" fill-opacity="0.6""#);
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
