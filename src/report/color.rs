//! Colours: the palette of SVG regions, and ANSI colouring of the text renderings (queens
//! highlighted, each piece or part letter in its own colour).

use crate::puzzle::chess::Chess;
use crate::puzzle::dissection::DissectionPuzzle;
use crate::puzzle::packing::Packing;
use crate::puzzle::queens::Queens;
use crate::puzzle::{each_family, Family, Puzzle};
use anstyle::{Ansi256Color, AnsiColor, Color, Style};

/// The colour of region `k` as (red, green, blue): hues a golden angle apart, so
/// neighbouring labels (which are usually numbered consecutively) look clearly different,
/// with alternating lightness for more separation once the hues come round again.
pub fn region_rgb(k: usize) -> (u8, u8, u8) {
    let hue = (k as f64 * 137.507_764) % 360.0;
    let lightness = if k.is_multiple_of(2) { 0.70 } else { 0.60 };
    hsl_to_rgb(hue, 0.62, lightness)
}

fn hsl_to_rgb(hue: f64, saturation: f64, lightness: f64) -> (u8, u8, u8) {
    let chroma = (1.0 - (2.0 * lightness - 1.0).abs()) * saturation;
    let h = hue / 60.0;
    let x = chroma * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (chroma, x, 0.0),
        1 => (x, chroma, 0.0),
        2 => (0.0, chroma, x),
        3 => (0.0, x, chroma),
        4 => (x, 0.0, chroma),
        _ => (chroma, 0.0, x),
    };
    let m = lightness - chroma / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    (byte(r), byte(g), byte(b))
}

/// Light backgrounds of the xterm 256-colour palette (which nearly every terminal shows;
/// 24-bit colour is less widely supported), picked by hand to be told apart at a glance:
/// the coarse 6-level cube makes neighbouring SVG hues collapse into near-twins.
const TERMINAL_PALETTE: [u8; 12] = [217, 150, 153, 222, 183, 116, 216, 157, 225, 187, 110, 251];

/// The terminal background of region `k`.
fn terminal_colour(k: usize) -> Ansi256Color {
    Ansi256Color(TERMINAL_PALETTE[k % TERMINAL_PALETTE.len()])
}

/// How a family's text rendering is coloured.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// `Q` is a queen (highlighted), `*` an obstacle (dimmed).
    Queens,
    /// The letter is a chess piece (highlighted as queens are), `*` an obstacle (dimmed).
    Pieces(char),
    /// Every letter names a piece or part and gets its own background colour (cycling
    /// through twelve), numbered in order of first appearance; `*` and `#` are dimmed.
    Letters,
}

/// A family's colours in the reports. Each family implements it once, below;
/// [`Scheme::of`] dispatches over the registration list.
pub trait ColorFamily: Family {
    /// The colour scheme of the instance's text pictures.
    fn scheme(&self) -> Scheme;
}

impl ColorFamily for Queens {
    fn scheme(&self) -> Scheme {
        Scheme::Queens
    }
}

impl ColorFamily for Chess {
    fn scheme(&self) -> Scheme {
        Scheme::Pieces(self.piece.letter())
    }
}

impl ColorFamily for DissectionPuzzle {
    fn scheme(&self) -> Scheme {
        Scheme::Letters
    }
}

impl ColorFamily for Packing {
    fn scheme(&self) -> Scheme {
        Scheme::Letters
    }
}

impl Scheme {
    /// The scheme of `puzzle`'s family.
    pub fn of(puzzle: &Puzzle) -> Scheme {
        each_family!(puzzle, p => p.scheme())
    }
}

/// `text` with ANSI colours added as `scheme` says; lines with no cell characters are
/// left alone, so a colourless copy is `text` itself.
pub fn paint(text: &str, scheme: Scheme) -> String {
    let queen = Style::new()
        .bold()
        .fg_color(Some(Color::Ansi(AnsiColor::BrightYellow)))
        .bg_color(Some(Color::Ansi(AnsiColor::Magenta)));
    let dim = Style::new().dimmed();
    let mut letters: Vec<char> = Vec::new();
    let mut out = String::with_capacity(text.len() * 2);
    for ch in text.chars() {
        let style = match (scheme, ch) {
            (_, '*' | '#') => Some(dim),
            (Scheme::Queens, 'Q') => Some(queen),
            (Scheme::Pieces(letter), c) if c == letter => Some(queen),
            (Scheme::Letters, c) if c.is_ascii_alphabetic() => {
                let k = match letters.iter().position(|&l| l == c) {
                    Some(k) => k,
                    None => {
                        letters.push(c);
                        letters.len() - 1
                    }
                };
                Some(
                    Style::new()
                        .fg_color(Some(Color::Ansi(AnsiColor::Black)))
                        .bg_color(Some(Color::Ansi256(terminal_colour(k)))),
                )
            }
            _ => None,
        };
        match style {
            Some(style) => {
                out.push_str(&format!("{style}{ch}{style:#}"));
            }
            None => out.push(ch),
        }
    }
    out
}

/// Removes ANSI escape sequences (CSI ... letter): the inverse of [`paint`], for tests.
pub fn strip(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // Skip '[', parameters, and the final letter.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn painting_adds_only_escapes() {
        let text = "2\n-Q*\nQ--\n";
        let painted = paint(text, Scheme::Queens);
        assert_ne!(painted, text);
        assert_eq!(strip(&painted), text);
        // Two queens highlighted, one obstacle dimmed: three styled cells.
        assert_eq!(painted.matches("\u{1b}[0m").count(), 3);
    }

    #[test]
    fn letters_get_distinct_colours_in_order_of_appearance() {
        let painted = paint("AB\nBA\n", Scheme::Letters);
        let a = format!("{}", terminal_colour(0).0);
        let b = format!("{}", terminal_colour(1).0);
        assert_ne!(a, b);
        assert!(
            painted.starts_with(&format!("\u{1b}[30m\u{1b}[48;5;{a}mA")),
            "{painted:?}"
        );
        assert!(painted.contains(&format!("\u{1b}[48;5;{b}mB")));
    }

    #[test]
    fn palette_colours_are_distinct() {
        let colours: std::collections::HashSet<_> = (0..26).map(region_rgb).collect();
        assert_eq!(colours.len(), 26);
    }
}
