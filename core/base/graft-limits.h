/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-limits.h: every hard limit of the core, each with the reason for its
 * value.  Exceeding a limit is a GError at the offending position, never a
 * crash or a hang.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

/* Largest input file.  A generated 100,000-node module is about 6 MB; 256 MiB
 * leaves room for anything real while keeping a hostile file from exhausting
 * memory (the line table and tokens add a small multiple of the size). */
#define GRAFT_MAX_INPUT_BYTES (256u * 1024u * 1024u)

/* Largest JSON member of a .pt2 archive, uncompressed.  Its tree
 * (graft-pt2-tree.c) and the graph read from it take about four times the
 * text at the peak of a read (a 1,000,000-node program from
 * tests/bench/gen-program-big.py: 0.88 GB of JSON), so 1 GiB keeps a read
 * of the largest program under about 5 GB; a 100,000-node program is about
 * 90 MB.  The archive itself is bounded by GRAFT_MAX_ARCHIVE_BYTES, but a
 * zip member can inflate a thousandfold: this stops a hostile one while it
 * is read. */
#define GRAFT_MAX_JSON_BYTES (1024u * 1024u * 1024u)

/* Largest .pt2 archive (a file that starts as a zip does).  torch.export
 * stores the JSON member uncompressed next to the weights, so a
 * 1,000,000-node program is a 0.93 GB archive even when its weights are
 * small; the archive is read whole before its JSON, so this stays within
 * what GRAFT_MAX_JSON_BYTES lets through plus room for weights. */
#define GRAFT_MAX_ARCHIVE_BYTES (1536u * 1024u * 1024u)

/* Alignments "Why not here?" tries: the clicked node and the nodes that use
 * it, breadth first, each a walk of the pattern that may take one of the
 * clicked node's users for the pattern's result.  A node read by thousands
 * (a weight, a mask every layer uses) answers at once; a real pattern's
 * result sits a few uses away from any of its nodes, well within. */
#define GRAFT_MAX_EXPLAIN_ALIGNMENTS 256u

/* Deepest nesting of arrays and objects in that JSON.  The tree of it
 * keeps a frame per open level (formats/graft-pt2-tree.c), and json-glib,
 * which read it before yajl, recursed once per level with no limit of its
 * own (100,000 nested `[` overflowed its stack); torch writes about ten
 * levels, Python's json stops near 1,000. */
#define GRAFT_MAX_JSON_DEPTH 512

/* Deepest nesting of brackets, expressions and blocks the Python parser
 * accepts.  CPython itself stops at 200 nested parentheses; every level costs
 * a few recursive calls, and 200 of them stay far inside an 8 MiB stack even
 * under AddressSanitizer. */
#define GRAFT_MAX_PARSE_DEPTH 200

/* Deepest nesting of calls the tracer follows (helper functions, submodule
 * forwards, __init__ of custom modules).  Python's default recursion limit is
 * 1000; real models nest a few levels.  Each level of tracer recursion runs
 * through the evaluator once, so this also bounds the tracer's stack. */
#define GRAFT_MAX_CALL_DEPTH 100

/* Most nodes in one graph.  A 1,000,000-node graph is far beyond any real FX
 * graph (aten graphs of large models have tens of thousands) and needs
 * roughly 200 MB; more than this is refused rather than swapped. */
#define GRAFT_MAX_NODES 2000000u

/* Most statements in one Python module, nested ones included.  The syntax
 * tree costs about 450 bytes per simple statement and the whole module is
 * parsed before tracing starts, so without this a 100 MB file of one-line
 * statements took 12 s and 2.9 GB only to fail at the node limit.  A
 * module this long could not be traced under GRAFT_MAX_NODES in practice
 * (almost every statement of a traced function adds a node); stopping the
 * parse here costs at most about 1 GB. */
#define GRAFT_MAX_STATEMENTS GRAFT_MAX_NODES

/* Longest identifier or node name.  Real names are short; a 1 MB identifier
 * would be copied into every derived name and every output line. */
#define GRAFT_MAX_NAME_LENGTH 4096u

/* Most loop iterations (for over a range or a constant list, comprehension
 * items) the tracer runs in one trace.  Loops over constants unroll; a loop
 * of a billion iterations would hang the tracer. */
#ifndef GRAFT_FUZZING
#define GRAFT_MAX_LOOP_STEPS 10000000u
#endif

/* The pieces of chunk() of a constant tensor that the tracer makes; more
 * give a tensor of unknown make, as before chunk() was followed.  Each is a
 * tensor value of about 340 bytes of the arena: `torch.ones(65536)
 * .chunk(65536)` in a forward peaks at 27.7 MB against 5.2 MB for
 * `.chunk(1)` (`/usr/bin/time -f %M graft code`). */
#define GRAFT_MAX_CHUNKS 65536

/* Most passes through one while loop, and most calls one
 * `iter(callable, sentinel)` makes of its callable (a for loop over it, a
 * comprehension, next(), zip()): how long either runs is decided as it
 * runs, by a condition (a comparison with the sentinel) that cannot depend
 * on a traced value, so torch.fx runs it as plain Python; one that repeats
 * 100,000 times has a condition that never changes (torch hangs on it),
 * and each pass may add nodes: this stops it in a fraction of a second
 * instead of at the node limit ten seconds later.  A pass that adds no node
 * costs about 150 bytes of the arena (its values stay until the trace
 * ends), so without this an endless `for i in iter(queue.pop, 0):
 * queue.append(i)` ran to GRAFT_MAX_LOOP_STEPS: 1.9 s and 1.56 GB (now
 * 0.01 s, 19 MB).  Real models loop over layer counts in the hundreds. */
#ifndef GRAFT_FUZZING
#define GRAFT_MAX_WHILE_PASSES 100000u
#else
/* A fuzzing build (-Dfuzzing=true): the two loop bounds are variables,
 * these values unless a libFuzzer target lowers them
 * (tests/fuzz/fuzz-limits.c).  Under ASan and libFuzzer's comparison
 * tracing one pass of a loop costs 20-60 us on a loaded machine, so the
 * seeds that loop to the limit (errors/while_forever.py,
 * iter_sentinel_forever*.py, ...) took 5-25 s each and every mutant of
 * them as long: the python fuzzer spent its runs there.  A lower bound
 * reaches the same code, the limit's error included. */
extern unsigned int graft_max_loop_steps;
extern unsigned int graft_max_while_passes;
#define GRAFT_MAX_LOOP_STEPS   graft_max_loop_steps
#define GRAFT_MAX_WHILE_PASSES graft_max_while_passes
#endif

/* Deepest nesting of containers (lists, tuples, dicts, sets) that the
 * tracer walks through: printing, `==`, hashing, looking for traced values,
 * a node's arguments.  Each walk recurses once a level, so a list nested a
 * million times by a loop (`a = [a]`) or holding itself overflowed the
 * stack; Python stops such a walk at its recursion limit, 1,000 frames
 * (RecursionError), and so does this.  The code printers recurse once a
 * level of a node's arguments too (the listing readers stop at
 * GRAFT_MAX_PARSE_DEPTH and GRAFT_MAX_JSON_DEPTH). */
#define GRAFT_MAX_VALUE_DEPTH 1000

/* Largest DOT input.  cgraph holds a few hundred bytes for every node and
 * edge it reads, so a hostile file of a few bytes per element costs ~100x
 * its size in memory; 16 MiB keeps that under 2 GB.  Graft's own DOT of a
 * 50,000-node graph is about 10 MB. */
#define GRAFT_MAX_DOT_BYTES (16u * 1024u * 1024u)

/* Most edges (`->` arrows) in DOT input, counted before cgraph reads it.
 * cgraph spends about 12 us and 280 bytes per edge (a million edges took
 * 12 s here); an FX graph of 100,000 nodes has about 150,000. */
#define GRAFT_MAX_DOT_EDGES 400000u

/* Most boxes handed to one dot run.  dot's time grows much faster than
 * linearly (layout-notes.md: 0.7 s at 1,000 plain nodes, 12.8 s at 3,000)
 * and some graphs crash it, so larger graphs are cut into segments of at
 * most this many boxes, laid out one by one and stacked. */
#define GRAFT_MAX_SEGMENT_NODES 200u

/* Most graph nodes a layout accepts.  Segments keep layout linear, but a
 * drawing of more than 100,000 boxes is neither readable nor cheap to draw;
 * larger graphs need the collapsed views of a later release. */
#define GRAFT_MAX_LAYOUT_NODES 100000u

/* Most bits of an int that constant folding makes (Python's are unbounded).
 * Model files hold sizes and constants of a few dozen digits at most; a
 * million bits (301,030 digits) folds in milliseconds, while `2 ** 10 ** 9`
 * would take minutes and a gigabyte. */
#define GRAFT_MAX_BIGINT_BITS 1000000

/* Largest side of a PNG, in pixels.  cairo's image surfaces stop at 32,767
 * pixels a side; a taller drawing (about 500 nodes of a chain at the usual
 * 2x scale) is scaled down to fit, and refused below
 * GRAFT_MIN_PNG_SCALE.  cairo writes a PNG from an image surface, so
 * this bounds the file too. */
#define GRAFT_MAX_PNG_SIDE 32000.0

/* The smallest scale of a PNG, in pixels per point: below it a box
 * (about 36 points tall) is under two pixels and the picture shows
 * nothing but a smudge, so the PNG is refused and SVG or PDF, or a part
 * of the drawing, is the way. */
#define GRAFT_MIN_PNG_SCALE 0.05

/* Below this scale, in pixels per point, a PNG's 8-point captions are
 * under 6 pixels tall: the boxes and edges show, the text cannot be read.
 * The editor says so before and after such an export. */
#define GRAFT_MIN_READABLE_PNG_SCALE 0.75

/* Most pixels of a PNG: 64 Mi pixels, 256 MiB of ARGB32 memory while it is
 * drawn.  A wide and tall drawing is scaled down to stay under it. */
#define GRAFT_MAX_PNG_PIXELS (64.0 * 1024 * 1024)

/* Largest side of an SVG or PDF page, in points: PDF's largest page, 200
 * inches (viewers refuse larger ones); SVG follows, so that both formats
 * of one drawing have the same size. */
#define GRAFT_MAX_VECTOR_SIDE 14400.0

/* How deep nested evaluation (expressions, statements and calls together)
 * may go while tracing.  The parser bounds the nesting of one function to
 * GRAFT_MAX_PARSE_DEPTH, calls multiply it, and this keeps the product far
 * inside the stack (torch's own limit is Python's recursion limit, 1,000
 * frames by default). */
#define GRAFT_MAX_EVAL_DEPTH 4000
