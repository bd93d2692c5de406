//! The tui-rs peer of `hybrid-bench --peers`: draws the scene of samples/peer-scene.json at
//! 120x40 with tui 0.19 (the version issue 16 measured) and its crossterm backend, and prints, in
//! one process, the figures HybridTerm reports for the same screen:
//!
//!     tui-rs <figure> <milliseconds> ms <bytes> B
//!
//! first-frame-cold  the very first frame of the process, measured once
//! first-frame-warm  the widgets built from the scene data, rendered into tui's buffer and diffed
//!                   against an empty screen (`Terminal::clear` first), written (median)
//! label-update      the header changed to a string of the same length, drawn (median)
//! full-repaint      the last frame's buffer written whole, as `Terminal::clear` and a draw of an
//!                   unchanged buffer do: the screen cleared, every cell that is not blank (median)
//! scroll-line       the boxes in a viewport below the header (rows 2..40) drawn one line further
//!                   down (or back up), with dim ▲/▼ marks on the last column; tui diffs cells and
//!                   has no scrolling of its own (median time; bytes of the step down)
//!
//! Usage: tui_scene SCENE.txt, the scene as bench/peers/scene_to_text.py writes it (the JSON's
//! spans and colours, hex colours as the nearest of xterm's 256, as the ncurses peer draws them).
//! The backend writes into memory, so the bytes are counted and nothing reaches the terminal;
//! emptying it between runs is not timed. Lines starting with '#' are notes. Widgets are built
//! every frame, as tui-rs apps do, from the lines on screen only.

use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;
use std::time::Instant;
use tui::backend::{Backend, CrosstermBackend};
use tui::buffer::Buffer;
use tui::layout::Rect;
use tui::style::{Color, Modifier, Style};
use tui::text::{Span, Spans};
use tui::widgets::{Block, BorderType, Borders, Paragraph, Widget};
use tui::terminal::CompletedFrame;
use tui::{Terminal, TerminalOptions, Viewport};

const WIDTH: u16 = 120;
const HEIGHT: u16 = 40;
const VIEW_ROWS: usize = HEIGHT as usize - 1;

/// One span of the scene: its style and text.
struct StyledText {
    style: Style,
    text: String,
}

/// A rounded box of the scroll content: its title and lines. It takes `lines.len() + 2` rows.
struct SceneBox {
    title: String,
    lines: Vec<Vec<StyledText>>,
}

struct Scene {
    header: StyledText,
    /// The header of the label update: the words after the first in capitals, the same length.
    other_header: String,
    boxes: Vec<SceneBox>,
}

impl Scene {
    fn rows(&self) -> usize {
        self.boxes.iter().map(|b| b.lines.len() + 2).sum()
    }
}

fn fail(path: &str, line: usize, message: &str) -> ! {
    eprintln!("tui_scene: {}:{}: {}", path, line, message);
    std::process::exit(1)
}

fn style_from(fields: &[&str], path: &str, line: usize) -> Style {
    let mut style = Style::default();
    for letter in fields[0].chars().filter(|&c| c != '-') {
        style = style.add_modifier(match letter {
            'b' => Modifier::BOLD,
            'i' => Modifier::ITALIC,
            'u' => Modifier::UNDERLINED,
            'r' => Modifier::REVERSED,
            'd' => Modifier::DIM,
            _ => fail(path, line, "unknown attribute letter"),
        });
    }
    let colour = |field: &str| match field.parse::<i32>() {
        Ok(-1) => None,
        Ok(index @ 0..=255) => Some(Color::Indexed(index as u8)),
        _ => fail(path, line, "a colour is neither -1 nor an xterm-256color index"),
    };
    if let Some(fg) = colour(fields[1]) {
        style = style.fg(fg);
    }
    if let Some(bg) = colour(fields[2]) {
        style = style.bg(bg);
    }
    style
}

/// Reads the scene records (see scene_to_text.py); refuses anything else with its line.
fn load(path: &str) -> Scene {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|error| fail(path, 0, &format!("cannot read the scene (run scripts/build-peers.sh): {}", error)));
    let mut header: Option<StyledText> = None;
    let mut boxes: Vec<SceneBox> = Vec::new();
    for (index, record) in text.lines().enumerate() {
        let line = index + 1;
        let fields: Vec<&str> = record.split('\t').collect();
        match (fields[0], fields.len()) {
            ("header", 5) => header = Some(StyledText { style: style_from(&fields[1..], path, line), text: fields[4].to_string() }),
            ("box", 2) => boxes.push(SceneBox { title: format!(" {} ", fields[1]), lines: Vec::new() }),
            ("line", 1) => match boxes.last_mut() {
                Some(open) => open.lines.push(Vec::new()),
                None => fail(path, line, "a line outside a box"),
            },
            ("span", 5) => match boxes.last_mut().and_then(|open| open.lines.last_mut()) {
                Some(spans) => spans.push(StyledText { style: style_from(&fields[1..], path, line), text: fields[4].to_string() }),
                None => fail(path, line, "a span outside a line"),
            },
            _ => fail(path, line, "unexpected record"),
        }
    }
    let header = header.unwrap_or_else(|| fail(path, 1, "the scene has no header"));
    let other_header = match header.text.split_once(' ') {
        Some((first, rest)) => format!("{} {}", first, rest.to_uppercase()),
        None => header.text.clone(),
    };
    if other_header == header.text || other_header.len() != header.text.len() {
        fail(path, 1, "the header needs a lowercase word after its first to change");
    }
    let scene = Scene { header, other_header, boxes };
    if scene.rows() < VIEW_ROWS {
        fail(path, text.lines().count(), "the scene needs a screenful of box rows");
    }
    scene
}

/// The scroll view's marks: dim ▲ on the first row and ▼ on the last, in the last column.
struct Marks {
    up: bool,
    down: bool,
}

impl Widget for Marks {
    fn render(self, area: Rect, buffer: &mut Buffer) {
        let dim = Style::default().add_modifier(Modifier::DIM);
        if self.up {
            buffer.get_mut(area.right() - 1, area.top()).set_symbol("▲").set_style(dim);
        }
        if self.down {
            buffer.get_mut(area.right() - 1, area.bottom() - 1).set_symbol("▼").set_style(dim);
        }
    }
}

/// Draws the header and the boxes from content row `offset` (each box clipped to the rows on
/// screen, its borders only where they show), with the scroll marks when `marks`.
fn draw<'t, B: Backend>(terminal: &'t mut Terminal<B>, scene: &Scene, header: &str, offset: usize, marks: bool) -> CompletedFrame<'t> {
    terminal
        .draw(|frame| {
            let bold = Style::default().add_modifier(Modifier::BOLD);
            frame.render_widget(Paragraph::new(Span::styled(header, scene.header.style)), Rect::new(0, 0, WIDTH, 1));
            let mut top = 0; // the box's first content row
            for scene_box in &scene.boxes {
                let rows = scene_box.lines.len() + 2;
                let (start, end) = (top.max(offset), (top + rows).min(offset + VIEW_ROWS));
                if start < end {
                    let mut borders = Borders::LEFT | Borders::RIGHT;
                    let mut block = Block::default().border_type(BorderType::Rounded);
                    if start == top {
                        borders |= Borders::TOP;
                        block = block.title(Span::styled(scene_box.title.as_str(), bold));
                    }
                    if end == top + rows {
                        borders |= Borders::BOTTOM;
                    }
                    let block = block.borders(borders);
                    let area = Rect::new(0, (1 + start - offset) as u16, WIDTH, (end - start) as u16);
                    let first = start.max(top + 1) - (top + 1);
                    let last = end.min(top + rows - 1).saturating_sub(top + 1).max(first);
                    let lines: Vec<Spans> = scene_box.lines[first..last]
                        .iter()
                        .map(|spans| Spans(spans.iter().map(|s| Span::styled(s.text.as_str(), s.style)).collect()))
                        .collect();
                    frame.render_widget(Paragraph::new(lines).block(block), area);
                }
                top += rows;
            }
            if marks {
                let view = Rect::new(0, 1, WIDTH, VIEW_ROWS as u16);
                frame.render_widget(Marks { up: offset > 0, down: offset + VIEW_ROWS < scene.rows() }, view);
            }
        })
        .unwrap_or_else(|error| fail("draw", 0, &error.to_string()))
}

/// The backend's output: kept in memory and counted, shared with the measuring loop.
#[derive(Clone, Default)]
struct Output(Rc<RefCell<Vec<u8>>>);

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Output {
    fn rewind(&self) {
        self.0.borrow_mut().clear();
    }

    fn written(&self) -> usize {
        self.0.borrow().len()
    }
}

/// The median milliseconds of `runs` runs of `step` (after up to 20 to warm up, as hybrid-bench
/// measures), the output emptied before each; also the bytes the last run wrote.
fn measure(output: &Output, runs: usize, mut step: impl FnMut(usize)) -> (f64, usize) {
    for run in 0..runs.min(20) {
        output.rewind();
        step(run);
    }
    let mut samples = Vec::with_capacity(runs);
    for run in 0..runs {
        output.rewind();
        let start = Instant::now();
        step(run);
        samples.push(start.elapsed().as_secs_f64() * 1e3);
    }
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (samples[runs / 2], output.written())
}

fn report(figure: &str, (milliseconds, bytes): (f64, usize)) {
    println!("tui-rs {} {:.4} ms {} B", figure, milliseconds, bytes);
}

fn main() {
    let arguments: Vec<String> = std::env::args().collect();
    if arguments.len() != 2 {
        eprintln!("usage: tui_scene SCENE.txt (written by bench/peers/scene_to_text.py)");
        std::process::exit(2);
    }
    let scene = load(&arguments[1]);
    let output = Output::default();
    let viewport = Viewport::fixed(Rect::new(0, 0, WIDTH, HEIGHT));
    let mut terminal = Terminal::with_options(CrosstermBackend::new(output.clone()), TerminalOptions { viewport })
        .unwrap_or_else(|error| fail("terminal", 0, &error.to_string()));
    println!("# tui 0.19 with its crossterm backend (Debian's librust-tui-dev), 256 colours as the scene data gives them, output to memory");

    let start = Instant::now();
    draw(&mut terminal, &scene, &scene.header.text, 0, false);
    report("first-frame-cold", (start.elapsed().as_secs_f64() * 1e3, output.written()));

    let clear = |terminal: &mut Terminal<_>| terminal.clear().unwrap_or_else(|error| fail("clear", 0, &error.to_string()));
    report("first-frame-warm", measure(&output, 200, |_| {
        clear(&mut terminal);
        draw(&mut terminal, &scene, &scene.header.text, 0, false);
    }));
    let headers = [scene.header.text.as_str(), scene.other_header.as_str()];
    // An even number of runs: the header ends as it began.
    report("label-update", measure(&output, 2000, |run| {
        draw(&mut terminal, &scene, headers[(run % 2 == 0) as usize], 0, false);
    }));
    let shown = draw(&mut terminal, &scene, headers[0], 0, false).buffer.clone();
    let empty = Buffer::empty(shown.area);
    report("full-repaint", measure(&output, 2000, |_| {
        let backend = terminal.backend_mut();
        let written = backend.clear().and_then(|_| backend.draw(empty.diff(&shown).into_iter())).and_then(|_| Backend::flush(backend));
        written.unwrap_or_else(|error| fail("repaint", 0, &error.to_string()));
    }));

    // The scroll scene: the same boxes with the viewport's marks, at the top; down one line on
    // even runs, back up on odd ones, as hybrid-bench scrolls.
    draw(&mut terminal, &scene, headers[0], 0, true);
    let (milliseconds, _) = measure(&output, 500, |run| {
        draw(&mut terminal, &scene, headers[0], (run % 2 == 0) as usize, true);
    });
    output.rewind();
    draw(&mut terminal, &scene, headers[0], 1, true);
    report("scroll-line", (milliseconds, output.written()));
}
