/*
 * The ncurses peer of `hybrid-bench --peers`: draws the scene of samples/peer-scene.json at
 * 120x40 with the wide-character ncursesw API and prints, in one process, the figures HybridTerm
 * reports for the same screen:
 *
 *     ncurses <figure> <milliseconds> ms <bytes> B
 *
 * first-frame-cold  the very first frame of the process (after newterm), measured once
 * first-frame-warm  erase, draw the whole scene, clearok(curscr), doupdate (median)
 * label-update      the header changed to a string of the same length, doupdate (median)
 * full-repaint      clearok(curscr) and doupdate of the unchanged scene (median)
 * scroll-line       the boxes in a viewport below the header (rows 2..40) redrawn one line
 *                   further down (or back up), ncurses finding the shift itself (idlok), no key
 *                   handling (median time; bytes of the step down)
 *
 * Usage: ncurses_scene SCENE.txt, the scene as scene_to_text.py writes it (the JSON's spans and
 * colours, hex colours as the nearest of xterm's 256). The output goes to a memfd through
 * newterm("xterm-256color", ...), so the bytes are counted and nothing reaches the terminal;
 * rewinding it between runs is not timed. Lines starting with '#' are notes.
 */
#define _GNU_SOURCE
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

enum { WIDTH = 120, HEIGHT = 40, VIEW_ROWS = HEIGHT - 1 };

typedef struct {
    attr_t attrs;
    short pair;
    wchar_t *text;
} Span;

/* One row of the scroll content: a box's top border (with its title), one of its lines, or its
 * bottom border. */
typedef struct {
    enum { TOP, LINE, BOTTOM } kind;
    wchar_t *title;
    Span *spans;
    int count;
} Row;

static Span header;
static wchar_t *header_texts[2];
static Row *rows;
static int row_count;
static int pair_colours[256][2];
static int pair_count;
static WINDOW *head, *view;
static int out_fd;
static wchar_t rule[WIDTH + 1];

static void die(const char *where, int line, const char *message) {
    fprintf(stderr, "ncurses_scene: %s:%d: %s\n", where, line, message);
    exit(1);
}

static wchar_t *wide(const char *text, const char *path, int line) {
    size_t length = mbstowcs(NULL, text, 0);
    if (length == (size_t)-1) die(path, line, "text is not valid UTF-8");
    wchar_t *result = calloc(length + 1, sizeof *result);
    mbstowcs(result, text, length + 1);
    return result;
}

/* The colour pair of a foreground and background (-1 the terminal's default), made on first use. */
static short pair_for(int fg, int bg, const char *path, int line) {
    if (fg == -1 && bg == -1) return 0;
    for (int i = 1; i <= pair_count; i++)
        if (pair_colours[i][0] == fg && pair_colours[i][1] == bg) return (short)i;
    if (pair_count + 1 >= 256 || pair_count + 1 >= COLOR_PAIRS) die(path, line, "too many colour pairs");
    pair_count++;
    pair_colours[pair_count][0] = fg;
    pair_colours[pair_count][1] = bg;
    if (init_pair((short)pair_count, (short)fg, (short)bg) == ERR) die(path, line, "init_pair refused the colours");
    return (short)pair_count;
}

static Span span_from(char **fields, const char *path, int line) {
    Span span = {A_NORMAL, 0, NULL};
    for (const char *a = fields[0]; *a && *a != '-'; a++) {
        switch (*a) {
        case 'b': span.attrs |= A_BOLD; break;
        case 'i': span.attrs |= A_ITALIC; break;
        case 'u': span.attrs |= A_UNDERLINE; break;
        case 'r': span.attrs |= A_REVERSE; break;
        case 'd': span.attrs |= A_DIM; break;
        default: die(path, line, "unknown attribute letter");
        }
    }
    span.pair = pair_for(atoi(fields[1]), atoi(fields[2]), path, line);
    span.text = wide(fields[3], path, line);
    return span;
}

/* Reads the scene records (after newterm: colour pairs are made while reading). */
static void load(const char *path) {
    FILE *file = fopen(path, "r");
    if (!file) die(path, 0, "cannot open the scene (run scripts/build-peers.sh)");
    char *text = NULL;
    size_t capacity = 0;
    int line = 0, capacity_rows = 0, box_open = 0;
    while (getline(&text, &capacity, file) > 0) {
        line++;
        text[strcspn(text, "\n")] = 0;
        char *fields[5] = {0};
        int count = 0;
        for (char *cursor = text; cursor && count < 5; count++) fields[count] = strsep(&cursor, "\t");
        if (row_count + 2 > capacity_rows) {
            capacity_rows = capacity_rows ? capacity_rows * 2 : 1024;
            rows = realloc(rows, capacity_rows * sizeof *rows);
        }
        if (!strcmp(fields[0], "header") && count == 5) {
            header = span_from(fields + 1, path, line);
        } else if (!strcmp(fields[0], "box") && count == 2) {
            if (box_open) rows[row_count++] = (Row){BOTTOM, NULL, NULL, 0};
            rows[row_count++] = (Row){TOP, wide(fields[1], path, line), NULL, 0};
            box_open = 1;
        } else if (!strcmp(fields[0], "line") && count == 1 && box_open) {
            rows[row_count++] = (Row){LINE, NULL, NULL, 0};
        } else if (!strcmp(fields[0], "span") && count == 5 && row_count && rows[row_count - 1].kind == LINE) {
            Row *row = &rows[row_count - 1];
            row->spans = realloc(row->spans, (row->count + 1) * sizeof *row->spans);
            row->spans[row->count++] = span_from(fields + 1, path, line);
            int columns = 0;
            for (int i = 0; i < row->count; i++) columns += wcswidth(row->spans[i].text, wcslen(row->spans[i].text));
            if (columns > WIDTH - 2) die(path, line, "the line is wider than the box");
        } else {
            die(path, line, "unexpected record");
        }
    }
    if (box_open) rows[row_count++] = (Row){BOTTOM, NULL, NULL, 0};
    free(text);
    fclose(file);
    if (!header.text || row_count < VIEW_ROWS) die(path, line, "the scene needs a header and a screenful of box rows");
    header_texts[0] = header.text;
    /* The other header of the label update, as hybrid-bench changes it: the same length, the
     * words after the first in capitals ("HybridTerm peer scene", "HybridTerm PEER SCENE"). */
    header_texts[1] = wcsdup(header.text);
    for (wchar_t *c = wcschr(header_texts[1], L' '); c && *c; c++) *c = (wchar_t)towupper(*c);
    if (!wcscmp(header_texts[0], header_texts[1])) die(path, 1, "the header needs a lowercase word after its first to change");
}

static void draw_span(WINDOW *window, const Span *span) {
    wattr_set(window, span->attrs, span->pair, NULL);
    waddwstr(window, span->text);
    wattr_set(window, A_NORMAL, 0, NULL);
}

static void draw_row(int y, const Row *row) {
    switch (row->kind) {
    case TOP: {
        mvwaddwstr(view, y, 0, L"╭");
        Span title = {A_BOLD, 0, NULL};
        wchar_t padded[WIDTH];
        swprintf(padded, WIDTH, L" %ls ", row->title);
        title.text = padded;
        draw_span(view, &title);
        int used = 1 + wcswidth(padded, wcslen(padded));
        waddnwstr(view, rule, WIDTH - 1 - used);
        mvwaddwstr(view, y, WIDTH - 1, L"╮");
        break;
    }
    case LINE:
        mvwaddwstr(view, y, 0, L"│");
        for (int i = 0; i < row->count; i++) draw_span(view, &row->spans[i]);
        mvwaddwstr(view, y, WIDTH - 1, L"│");
        break;
    case BOTTOM:
        mvwaddwstr(view, y, 0, L"╰");
        waddnwstr(view, rule, WIDTH - 2);
        mvwaddwstr(view, y, WIDTH - 1, L"╯");
        break;
    }
}

static void draw_header(int which) {
    werase(head);
    Span span = header;
    span.text = header_texts[which];
    wmove(head, 0, 0);
    draw_span(head, &span);
    wnoutrefresh(head);
}

/* The boxes from content row `offset`, with the scroll marks (dim ▲ and ▼ on the last column,
 * as HybridTerm's scroll view draws them) when `marks`: the plain scene is the boxes clipped by
 * the screen, the scroll scene the same boxes in a viewport. */
static void draw_view(int offset, int marks) {
    werase(view);
    for (int y = 0; y < VIEW_ROWS; y++) draw_row(y, &rows[offset + y]);
    if (marks) {
        wattr_set(view, A_DIM, 0, NULL);
        if (offset > 0) mvwaddwstr(view, 0, WIDTH - 1, L"▲");
        if (offset + VIEW_ROWS < row_count) mvwaddwstr(view, VIEW_ROWS - 1, WIDTH - 1, L"▼");
        wattr_set(view, A_NORMAL, 0, NULL);
    }
    wnoutrefresh(view);
}

static double now_ms(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return time.tv_sec * 1e3 + time.tv_nsec / 1e6;
}

static void rewind_output(void) {
    if (ftruncate(out_fd, 0) || lseek(out_fd, 0, SEEK_SET)) die("memfd", 0, "cannot rewind the output");
}

static long written(void) { return (long)lseek(out_fd, 0, SEEK_CUR); }

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median milliseconds of `runs` runs of `step` (after up to 20 to warm up, as hybrid-bench
 * measures), the output rewound before each; `bytes` gets what the last run wrote. */
static double measure(int runs, void (*step)(int run), long *bytes) {
    for (int run = 0; run < (runs < 20 ? runs : 20); run++) { rewind_output(); step(run); }
    double *samples = malloc(runs * sizeof *samples);
    for (int run = 0; run < runs; run++) {
        rewind_output();
        double start = now_ms();
        step(run);
        samples[run] = now_ms() - start;
        *bytes = written();
    }
    qsort(samples, runs, sizeof *samples, compare);
    double median = samples[runs / 2];
    free(samples);
    return median;
}

static void report(const char *figure, double ms, long bytes) {
    printf("ncurses %s %.4f ms %ld B\n", figure, ms, bytes);
}

static void warm_frame(int run) {
    (void)run;
    draw_header(0);
    draw_view(0, 0);
    clearok(curscr, TRUE);
    doupdate();
}

static void label_update(int run) {
    draw_header(run % 2 == 0);
    doupdate();
}

static void full_repaint(int run) {
    (void)run;
    clearok(curscr, TRUE);
    doupdate();
}

/* Down one line on even runs, back up on odd ones, as hybrid-bench scrolls. */
static void scroll_line(int run) {
    draw_view(run % 2 == 0, 1);
    doupdate();
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: ncurses_scene SCENE.txt (written by bench/peers/scene_to_text.py)\n");
        return 2;
    }
    if (!setlocale(LC_ALL, "") || strcmp(nl_langinfo(CODESET), "UTF-8"))
        if (!setlocale(LC_ALL, "C.UTF-8")) die("setlocale", 0, "no UTF-8 locale (C.UTF-8)");
    out_fd = memfd_create("ncurses-output", 0);
    FILE *out = out_fd >= 0 ? fdopen(out_fd, "w") : NULL;
    FILE *in = fopen("/dev/null", "r");
    if (!out || !in) die("memfd", 0, "cannot open the output or /dev/null");
    /* Not a terminal: ncurses takes the size from the environment. */
    setenv("LINES", "40", 1);
    setenv("COLUMNS", "120", 1);
    SCREEN *screen = newterm("xterm-256color", out, in);
    if (!screen) die("newterm", 0, "no terminfo entry for xterm-256color");
    if (LINES != HEIGHT || COLS != WIDTH) die("newterm", 0, "the screen is not 120x40");
    typeahead(-1);
    start_color();
    use_default_colors();
    for (int i = 0; i < WIDTH; i++) rule[i] = L'─';
    load(argv[1]);
    head = newwin(1, WIDTH, 0, 0);
    view = newwin(VIEW_ROWS, WIDTH, 1, 0);
    idlok(view, TRUE);
    printf("# %s, TERM=xterm-256color (%d colours, hex colours as the nearest of 256), output to a memfd\n",
           curses_version(), COLORS);

    rewind_output();
    double start = now_ms();
    draw_header(0);
    draw_view(0, 0);
    doupdate();
    report("first-frame-cold", now_ms() - start, written());

    long bytes = 0;
    double ms = measure(200, warm_frame, &bytes);
    report("first-frame-warm", ms, bytes);
    ms = measure(2000, label_update, &bytes); /* an even number of runs: the header ends as it began */
    report("label-update", ms, bytes);
    ms = measure(2000, full_repaint, &bytes);
    report("full-repaint", ms, bytes);

    /* The scroll scene: the same boxes with the viewport's marks, at the top. */
    draw_view(0, 1);
    doupdate();
    ms = measure(500, scroll_line, &bytes); /* back at the top: the last run scrolled up */
    rewind_output();
    scroll_line(0);
    report("scroll-line", ms, written());
    endwin();
    delscreen(screen);
    return 0;
}
