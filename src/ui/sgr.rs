//! ANSI SGR parameters (kept as data by `model::log::split_sgr`) turned into ratatui styles, so a
//! log's colours are drawn as colours and no escape byte ever reaches the terminal.

use ratatui::style::{Color, Modifier, Style};

const BASIC: [Color; 8] = [
    Color::Black,
    Color::Red,
    Color::Green,
    Color::Yellow,
    Color::Blue,
    Color::Magenta,
    Color::Cyan,
    Color::Gray,
];
const BRIGHT: [Color; 8] = [
    Color::DarkGray,
    Color::LightRed,
    Color::LightGreen,
    Color::LightYellow,
    Color::LightBlue,
    Color::LightMagenta,
    Color::LightCyan,
    Color::White,
];

/// Applies one SGR parameter string (`1;31`, `38;5;208`, `38;2;255;0;0`, `` = reset) to `style`.
/// With `color = false` (`NO_COLOR`) colours are ignored and only modifiers apply. Unknown
/// parameters are ignored.
#[must_use]
pub fn apply(style: Style, params: &str, color: bool) -> Style {
    let nums: Vec<u16> = params
        .split([';', ':'])
        .map(|p| p.parse().unwrap_or(0))
        .collect();
    let mut s = style;
    let mut i = 0;
    while i < nums.len() {
        let n = nums[i];
        match n {
            0 => s = Style::new(),
            1 => s = s.add_modifier(Modifier::BOLD),
            2 => s = s.add_modifier(Modifier::DIM),
            3 => s = s.add_modifier(Modifier::ITALIC),
            4 => s = s.add_modifier(Modifier::UNDERLINED),
            7 => s = s.add_modifier(Modifier::REVERSED),
            9 => s = s.add_modifier(Modifier::CROSSED_OUT),
            22 => s = s.remove_modifier(Modifier::BOLD | Modifier::DIM),
            23 => s = s.remove_modifier(Modifier::ITALIC),
            24 => s = s.remove_modifier(Modifier::UNDERLINED),
            27 => s = s.remove_modifier(Modifier::REVERSED),
            29 => s = s.remove_modifier(Modifier::CROSSED_OUT),
            30..=37 | 90..=97 | 40..=47 | 100..=107 | 39 | 49 if color => {
                let c = match n {
                    30..=37 => Some(BASIC[usize::from(n - 30)]),
                    40..=47 => Some(BASIC[usize::from(n - 40)]),
                    90..=97 => Some(BRIGHT[usize::from(n - 90)]),
                    100..=107 => Some(BRIGHT[usize::from(n - 100)]),
                    _ => None,
                };
                let fg = matches!(n, 30..=39 | 90..=97);
                s = match (fg, c) {
                    (true, Some(c)) => s.fg(c),
                    (false, Some(c)) => s.bg(c),
                    (true, None) => s.fg(Color::Reset),
                    (false, None) => s.bg(Color::Reset),
                };
            }
            38 | 48 => {
                let (c, used) = match nums.get(i + 1) {
                    Some(5) => (
                        nums.get(i + 2)
                            .and_then(|v| u8::try_from(*v).ok())
                            .map(Color::Indexed),
                        3,
                    ),
                    Some(2) => {
                        let rgb = |k: usize| nums.get(i + k).and_then(|v| u8::try_from(*v).ok());
                        match (rgb(2), rgb(3), rgb(4)) {
                            (Some(r), Some(g), Some(b)) => (Some(Color::Rgb(r, g, b)), 5),
                            _ => (None, 5),
                        }
                    }
                    _ => (None, 1),
                };
                if let (Some(c), true) = (c, color) {
                    s = if n == 38 { s.fg(c) } else { s.bg(c) };
                }
                i += used;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_and_reset() {
        let s = apply(Style::new(), "1;31", true);
        assert_eq!(s, Style::new().fg(Color::Red).add_modifier(Modifier::BOLD));
        assert_eq!(apply(s, "", true), Style::new());
        assert_eq!(
            apply(Style::new(), "38;5;208", true),
            Style::new().fg(Color::Indexed(208))
        );
        assert_eq!(
            apply(Style::new(), "38;2;1;2;3;4", true),
            Style::new()
                .fg(Color::Rgb(1, 2, 3))
                .add_modifier(Modifier::UNDERLINED)
        );
        assert_eq!(apply(Style::new(), "31", false), Style::new());
    }
}
