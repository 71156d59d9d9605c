//! Pictures: the SVG is well-formed XML with one shape per piece, the highlight and the
//! coordinates where they belong; the terminal board is readable in ASCII and in colour.

use crumble_core::Color;
use crumble_core::game::GameState;
use crumble_core::games::crumble::render::svg;
use crumble_core::games::crumble::render::term;
use crumble_core::games::crumble::render::{BaseMark, Highlight};
use crumble_core::games::crumble::{Crumble, Frame, Rect};
use crumble_core::games::crumble::{notation, position};
use crumble_core::render::PictureStyle;
use rand::SeedableRng;

/// An element of a parsed XML document.
#[derive(Debug)]
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
    children: Vec<Element>,
}

impl Element {
    fn attr(&self, k: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    }
    fn all<'a>(&'a self, out: &mut Vec<&'a Element>) {
        out.push(self);
        for c in &self.children {
            c.all(out);
        }
    }
}

/// A small strict XML reader (elements, attributes, text, no DTD): enough to show that the
/// SVG is well-formed. Panics with the byte offset on anything malformed.
fn parse_xml(s: &str) -> Element {
    let b = s.as_bytes();
    let mut i = 0;
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    let name_char = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b':' | b'.');
    let check_text = |t: &str, at: usize| {
        let mut rest = t;
        while let Some(k) = rest.find('&') {
            let ent = &rest[k..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                    .iter()
                    .any(|e| ent.starts_with(e)),
                "bad entity at {at}: {ent:.10}"
            );
            rest = &rest[k + 1..];
        }
        assert!(!t.contains('<'), "'<' in text at {at}");
    };
    while i < b.len() {
        if b[i] != b'<' {
            let end = s[i..].find('<').map_or(b.len(), |k| i + k);
            let text = &s[i..end];
            if stack.is_empty() {
                assert!(text.trim().is_empty(), "text outside the root at {i}");
            }
            check_text(text, i);
            i = end;
            continue;
        }
        if s[i..].starts_with("</") {
            let end = i + s[i..].find('>').expect("closed end tag");
            let name = s[i + 2..end].trim();
            let el = stack
                .pop()
                .unwrap_or_else(|| panic!("stray end tag {name} at {i}"));
            assert_eq!(el.name, name, "mismatched end tag at {i}");
            match stack.last_mut() {
                Some(parent) => parent.children.push(el),
                None => {
                    assert!(root.is_none(), "two roots");
                    root = Some(el);
                }
            }
            i = end + 1;
            continue;
        }
        // Start tag.
        let mut j = i + 1;
        while j < b.len() && name_char(b[j]) {
            j += 1;
        }
        let name = s[i + 1..j].to_string();
        assert!(!name.is_empty(), "empty tag name at {i}");
        let mut attrs = Vec::new();
        loop {
            while b[j].is_ascii_whitespace() {
                j += 1;
            }
            if b[j] == b'>' || s[j..].starts_with("/>") {
                break;
            }
            let k0 = j;
            while name_char(b[j]) {
                j += 1;
            }
            let key = s[k0..j].to_string();
            assert!(
                !key.is_empty() && b[j] == b'=' && b[j + 1] == b'"',
                "bad attribute at {k0} in <{name}>"
            );
            let v0 = j + 2;
            let v1 = v0 + s[v0..].find('"').expect("closed attribute value");
            check_text(&s[v0..v1], v0);
            assert!(
                !attrs.iter().any(|(k, _)| *k == key),
                "duplicate attribute {key} at {k0}"
            );
            attrs.push((key, s[v0..v1].to_string()));
            j = v1 + 1;
        }
        let el = Element {
            name,
            attrs,
            children: Vec::new(),
        };
        if b[j] == b'/' {
            match stack.last_mut() {
                Some(parent) => parent.children.push(el),
                None => root = Some(el),
            }
            i = j + 2;
        } else {
            stack.push(el);
            i = j + 1;
        }
    }
    assert!(
        stack.is_empty(),
        "unclosed elements: {:?}",
        stack.iter().map(|e| &e.name).collect::<Vec<_>>()
    );
    root.expect("a root element")
}

fn play(game: &mut Crumble, moves: &[&str]) -> Option<Highlight> {
    let mut hl = None;
    for m in moves {
        let mv = notation::parse_move(game, m, Frame::PerPlayer).unwrap();
        hl = Highlight::of(game, &mv);
        game.play_move(&mv).unwrap();
    }
    hl
}

fn pieces_of(root: &Element) -> Vec<&Element> {
    let mut all = Vec::new();
    root.all(&mut all);
    all.into_iter()
        .filter(|e| {
            e.attr("class")
                .is_some_and(|c| c.split(' ').any(|w| w == "piece"))
        })
        .collect()
}

/// Parses the SVG and checks one `<rect class="piece COLOUR">` per piece, with the colours
/// and areas of the position.
fn check_svg(game: &Crumble, opts: &PictureStyle<Highlight>) -> Element {
    let text = svg::render(game, opts);
    let root = parse_xml(&text);
    assert_eq!(root.name, "svg");
    assert!(
        root.attr("viewBox").is_some() && root.attr("width").is_none(),
        "sized by its viewBox only"
    );
    let shapes = pieces_of(&root);
    let pieces = game.board().sorted_pieces();
    assert_eq!(shapes.len(), pieces.len(), "one shape per piece");
    assert!(shapes.iter().all(|e| e.name == "rect"));
    for colour in [Color::Black, Color::White] {
        let want = pieces.iter().filter(|p| p.color == colour).count();
        let got = shapes
            .iter()
            .filter(|e| e.attr("class").unwrap().contains(colour.name()))
            .count();
        assert_eq!(got, want, "{colour} pieces");
    }
    // The shapes cover the board: their areas add up to the board's.
    let area: f64 = shapes
        .iter()
        .map(|e| {
            e.attr("width").unwrap().parse::<f64>().unwrap()
                * e.attr("height").unwrap().parse::<f64>().unwrap()
        })
        .sum();
    let side = 100.0 * f64::from(game.board().board_size());
    assert!(
        (area - side * side).abs() < 1.0,
        "area {area} vs {}",
        side * side
    );
    root
}

#[test]
fn svg_is_well_formed_with_one_shape_per_piece() {
    let mut game = Crumble::new(6, 8).unwrap();
    check_svg(&game, &PictureStyle::default());
    let hl = play(&mut game, &["1HN", "5,5HSWS"]);
    let opts = PictureStyle {
        highlight: hl,
        last_move: Some("5,5HSWS <&> \"x\"".into()),
        ..Default::default()
    };
    let root = check_svg(&game, &opts);
    let mut all = Vec::new();
    root.all(&mut all);
    let steps = all
        .iter()
        .filter(|e| e.attr("class") == Some("step"))
        .count();
    assert_eq!(steps, 3, "one arrow per swap step");
    assert_eq!(
        all.iter()
            .filter(|e| e.attr("class") == Some("cut"))
            .count(),
        1,
        "the cut line"
    );
    assert!(
        all.iter()
            .any(|e| e.name == "text" && e.attr("class") == Some("label")),
        "coordinates"
    );
    // Random positions on several sizes, from both sides, with and without coordinates.
    for seed in 0..12u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (n, r) = [(6, 8), (8, 8), (3, 16), (12, 2)][seed as usize % 4];
        let mut game = Crumble::new(n, r).unwrap();
        let mut path = Vec::new();
        let mut hl = None;
        for _ in 0..(10 + 5 * seed) {
            if game.is_over() {
                break;
            }
            let before = game.clone();
            game.play_random_turn_recorded(&mut rng, &mut path);
            hl = Highlight::of(&before, &before.move_from_decisions(&path).unwrap());
            assert!(hl.is_some());
        }
        let view = if seed % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        check_svg(
            &game,
            &PictureStyle {
                view,
                coords: seed % 3 != 0,
                highlight: hl,
                ..Default::default()
            },
        );
    }
}

#[test]
fn highlight_of_a_split_and_a_join() {
    let mut game = Crumble::new(6, 8).unwrap();
    let hl = play(&mut game, &["1HN"]).unwrap();
    assert_eq!(
        hl.base,
        BaseMark::Cut {
            from: (8, 4),
            to: (16, 4)
        }
    );
    assert_eq!(hl.fresh, vec![Rect::new(8, 0, 8, 4), Rect::new(8, 4, 8, 4)]);
    assert_eq!(hl.path, vec![Rect::new(8, 4, 8, 4), Rect::new(8, 8, 8, 8)]);
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/examples/05-1-mover-wins-four-sides.json"
    ))
    .unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut game = position::from_json(&v["start"].to_string()).unwrap();
    let hl = play(&mut game, &["0,2J2,1E"]).unwrap();
    assert_eq!(hl.base, BaseMark::Outline(Rect::new(0, 16, 16, 8)));
    assert_eq!(hl.path.len(), 2);
    let out = svg::render(
        &game,
        &PictureStyle {
            highlight: Some(hl),
            ..Default::default()
        },
    );
    assert!(out.contains("1-0: Black wins (four-sides)"));
}

#[test]
fn terminal_board_in_ascii_and_colour() {
    let mut game = Crumble::new(6, 8).unwrap();
    let hl = play(&mut game, &["1HN"]);
    let opts = PictureStyle {
        highlight: hl.clone(),
        last_move: Some("1HN".into()),
        ..Default::default()
    };
    let ascii = term::render(&game, &opts);
    assert!(ascii.is_ascii(), "{ascii}");
    assert!(
        ascii.contains("White to move (turn 2); last move 1HN"),
        "{ascii}"
    );
    // Edge labels 0..6 along the bottom and the left, Black's pieces as '#', the cut as '='.
    let lines: Vec<&str> = ascii.lines().collect();
    let bottom = lines[lines.len() - 2];
    assert_eq!(
        bottom.split_whitespace().collect::<Vec<_>>(),
        ["0", "1", "2", "3", "4", "5", "6"]
    );
    assert!(lines[0].trim_start().starts_with("6 +"), "{}", lines[0]);
    assert!(ascii.contains('#') && ascii.contains("========="));
    assert!(
        ascii.contains('o') && ascii.contains('^'),
        "the swap path: {ascii}"
    );
    // All board rows have the same width.
    let widths: Vec<usize> = lines[..lines.len() - 2].iter().map(|l| l.len()).collect();
    assert!(widths.windows(2).all(|w| w[0] == w[1]), "{widths:?}");
    let colour = term::render(
        &game,
        &PictureStyle {
            color: true,
            ..opts.clone()
        },
    );
    assert!(
        colour.contains("\x1b[")
            && colour.contains('┼')
            && colour.contains('━')
            && colour.contains('↑')
    );
    // White's view of the same position is the rotation: the cut is near the top.
    let white = term::render(
        &game,
        &PictureStyle {
            view: Color::White,
            ..opts
        },
    );
    let cut_row = white.lines().position(|l| l.contains("=")).unwrap();
    assert!(cut_row < 4, "{white}");
    // 8x8 and a random 6x6 game with small pieces stay rectangular and readable.
    for (n, seed) in [(8u16, 1u64), (6, 2), (6, 3)] {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut game = Crumble::new(n, 8).unwrap();
        game.set_max_turns(60);
        for _ in 0..60 {
            game.play_random_turn(&mut rng);
        }
        let out = term::render(
            &game,
            &PictureStyle {
                coords: false,
                ..Default::default()
            },
        );
        let board: Vec<&str> = out.lines().filter(|l| l.starts_with(['+', '|'])).collect();
        assert!(board.windows(2).all(|w| w[0].len() == w[1].len()));
        let inside = board
            .iter()
            .map(|l| l.chars().filter(|&c| c == ' ' || c == '#').count())
            .sum::<usize>();
        assert!(inside > 0);
        assert!(
            board[0].len() <= 4 + 10 * usize::from(n) * 2,
            "not absurdly wide: {}",
            board[0].len()
        );
    }
}

/// The number in `text` after the first `prefix`, up to the next `end`.
fn number_after(text: &str, prefix: &str, end: char) -> f64 {
    let after = text.split(prefix).nth(1).unwrap();
    after.split(end).next().unwrap().parse().unwrap()
}

/// The picture of a small board is as wide as its status lines, not only as the board: no
/// text runs past the right edge (Splinter 5×6, Crumo of size 2).
#[test]
fn small_boards_are_as_wide_as_their_status_lines() {
    use crumble_core::GameState;
    use crumble_core::render::{PictureStyle, Pictures};
    let splinter = crumble_core::games::splinter::Splinter::from_start(
        &crumble_core::games::splinter::SplinterStart::standard(5, 6),
    )
    .unwrap();
    let crumo = crumble_core::games::crumo::Crumo::standard(2).unwrap();
    let style = PictureStyle::default();
    for svg in [
        splinter.svg_picture(None, &style).unwrap(),
        crumo.svg_picture(None, &style).unwrap(),
    ] {
        let width = number_after(&svg, "viewBox=\"0 0 ", ' ');
        // Every text's x plus half an em a character (a lower bound of its drawn width at
        // the pictures' 18 px or larger) lies inside the picture.
        let mut texts = 0;
        for chunk in svg.split("<text ").skip(1) {
            let (attrs, rest) = chunk.split_once('>').unwrap();
            let content = rest.split("</text>").next().unwrap();
            let x = number_after(attrs, "x=\"", '"');
            let end = x + 0.5 * 18.0 * content.chars().count() as f64;
            assert!(
                end <= width,
                "{content:?} ends at {end}, past the width {width}"
            );
            texts += 1;
        }
        assert!(texts > 2, "{svg}");
    }
}
