/* The compiled heart of the lay-off search: payme.layoff's joint optimum, in C.
 *
 * The Python search (payme.layoff._Search, with _Meld and _LaidSets) stays the reference
 * and the fallback; this file makes the same choices in the same order, so every answer
 * is the same (tests/test_layoff_core.py compares the two over every search of seeded
 * games and over random hard positions):
 *
 *   - each open run's lay-offs, listed from the places next to it (_Meld._reach and
 *     _Meld._run_fillings), and each open set's, every set of its candidate cards that
 *     grows it validly (_Meld.options with _grow_set); the lay-offs of a meld of wild
 *     cards only come listed from Python;
 *   - the floor (_Search._floor_free), asking Python for the hand's points with some
 *     cards priced at 0;
 *   - the family of sets of cards that can be laid off together, a bitset over the sets'
 *     numbers in mixed radix (_LaidSets), and the scoring loop of _Search.choose, asking
 *     Python for a set's points only where the set holds cards beyond the deadwood;
 *   - the first choice reaching the best set (_LaidSets.first).
 *
 * choose() answers None where a position is beyond what it holds (never in a game: a hand
 * that lays off holds at most 14 cards); Python searches it then.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NCARDS 59
#define MAXK 24        /* candidate kinds of card at most */
#define MAXSIZE 64     /* cards a lay-off takes at most */
#define MAXPLACE 16    /* places 0..15 of a run (1..13, 14 for an ace above a king) */
#define MAXN (1L << 22) /* sets (numbers) at most */
#define MAXMELDS 256   /* open melds at most (a game has at most a pack's cards / 3) */

typedef struct {
    uint8_t d[MAXK]; /* copies of each candidate kind */
    long number;     /* the set's number (mixed radix) */
    int size;
} opt_t;

typedef struct {
    int pos;         /* its place in the list given */
    int is_run;      /* LISTED, RUN or SET */
    uint64_t cand, fit, kinds; /* masks of card indices */
    int room;
    /* a run whose places are fixed */
    int len, low, high, top, base;
    uint32_t old_wild; /* places of the declarer's wild cards */
    int down[MAXPLACE + 1], ndown, up[MAXPLACE + 1], nup;
    /* its lay-offs, by size: opts[start[k - 1] .. start[k]) for sizes listed so far */
    opt_t *opts;
    int nopts, cap, listed;
    int start[MAXSIZE + 1];
    /* a set (not of wild cards only) */
    int rank, taken, set_wild; /* suits of its natural cards (a mask), its wild cards */
    PyObject *given; /* the lay-offs listed by Python (any other meld) */
} meld_t;

#define LISTED 0
#define RUN 1
#define SET 2

typedef struct {
    int K;
    int card[MAXK];  /* card index of each kind */
    int at[NCARDS];  /* kind of each card index, -1 */
    int count[MAXK], dead[MAXK], pts[MAXK];
    long radix[MAXK], stride[MAXK];
    long n;
    int half_limit, adjacent_limit, ace_high, run_most, distinct_suits, set_max;
    uint64_t wild_run, wild_set;
} ctx_t;

static int popcount64(uint64_t x) { return __builtin_popcountll(x); }

/* ---- lists ---------------------------------------------------------------------------- */

static int push_opt(meld_t *m, const opt_t *o) {
    if (m->nopts == m->cap) {
        int cap = m->cap ? 2 * m->cap : 16;
        opt_t *grown = realloc(m->opts, (size_t)cap * sizeof(opt_t));
        if (!grown) {
            PyErr_NoMemory();
            return -1;
        }
        m->opts = grown;
        m->cap = cap;
    }
    m->opts[m->nopts++] = *o;
    return 0;
}

/* The lay-offs of one size in the search's order: the cards' indices compared as sorted
   sequences, which for count vectors over kinds in index order is most copies of the
   first kind first. */
static int K_sort; /* set just before each qsort, which calls no Python (the GIL held) */
static int cmp_opt(const void *a, const void *b) {
    const opt_t *x = a, *y = b;
    for (int j = 0; j < K_sort; j++)
        if (x->d[j] != y->d[j]) return x->d[j] > y->d[j] ? -1 : 1;
    return 0;
}

static void finish_size(ctx_t *c, meld_t *m, int from) {
    K_sort = c->K;
    int count = m->nopts - from;
    if (count > 1) {
        qsort(m->opts + from, (size_t)count, sizeof(opt_t), cmp_opt);
        int kept = 1;
        for (int i = 1; i < count; i++)
            if (cmp_opt(&m->opts[from + kept - 1], &m->opts[from + i]) != 0)
                m->opts[from + kept++] = m->opts[from + i];
        m->nopts = from + kept;
    }
    for (int i = from; i < m->nopts; i++) {
        long number = 0;
        int size = 0;
        for (int j = 0; j < c->K; j++) {
            number += c->stride[j] * m->opts[i].d[j];
            size += m->opts[i].d[j];
        }
        m->opts[i].number = number;
        m->opts[i].size = size;
    }
}

/* ---- a run's lay-offs (_Meld._reach, _Meld._run_fillings) ----------------------------- */

static int natural_at(const ctx_t *c, const meld_t *m, int place) {
    /* The kind that stands at ``place`` as itself, or -1. */
    if (place < 1 || place > 14) return -1;
    int index = m->base + (place == 14 ? 0 : place - 1);
    if (place == 14 && !c->ace_high) return -1;
    if (!(m->kinds >> index & 1)) return -1;
    return c->at[index];
}

/* The meld's kinds once it is known which lay-offs it can reach (the global kinds are not
   known yet: counts by card index). */
static void reach(const ctx_t *c, meld_t *m, const uint8_t *hand) {
    int held = 0;
    uint64_t wild = m->kinds & c->wild_run;
    for (int i = 0; i < NCARDS; i++)
        if (wild >> i & 1) held += hand[i];
    m->down[0] = 0;
    m->ndown = 1;
    m->up[0] = 0;
    m->nup = 1;
    for (int side = 0; side < 2; side++) {
        int *steps = side ? m->up : m->down;
        int *nsteps = side ? &m->nup : &m->ndown;
        int start = side ? m->high + 1 : m->low - 1, end = side ? m->top + 1 : 0;
        int step = end > start ? 1 : -1;
        for (int place = start; place != end && (step > 0 ? place < end : place > end);
             place += step) {
            if (*nsteps > m->room) break;
            int index = m->base + (place == 14 ? 0 : place - 1);
            int natural = (place == 14 ? c->ace_high : 1) && (m->kinds >> index & 1);
            int need = steps[*nsteps - 1] + !natural;
            if (need > held) break;
            steps[(*nsteps)++] = need;
        }
    }
    int best = 0;
    for (int b = 0; b < m->ndown; b++)
        for (int a = 0; a < m->nup; a++)
            if (m->down[b] + m->up[a] <= held && b + a > best) best = b + a;
    if (best < m->room) m->room = best;
    /* Natural cards at places no lay-off reaches take part in none. */
    uint64_t keep = wild;
    for (int place = m->low - m->ndown + 1; place < m->low; place++) {
        int index = m->base + (place == 14 ? 0 : place - 1);
        if (m->kinds >> index & 1) keep |= (uint64_t)1 << index;
    }
    for (int place = m->high + 1; place < m->high + m->nup; place++) {
        if (place == 14 && !c->ace_high) continue;
        int index = m->base + (place == 14 ? 0 : place - 1);
        if (m->kinds >> index & 1) keep |= (uint64_t)1 << index;
    }
    keep &= m->kinds;
    if (keep != m->kinds) {
        m->kinds = keep;
        int sum = 0;
        for (int i = 0; i < NCARDS; i++)
            if (keep >> i & 1) sum += hand[i];
        if (sum < m->room) m->room = sum;
    }
}

/* Every way to take ``left`` more cards of the wild kinds ``wild[i..]`` (at most ``most``
   of each), added to ``o``. */
static int fill_wilds(ctx_t *c, meld_t *m, opt_t *o, const int *wild, const int *room, int nw,
                      int i, int left) {
    if (left == 0) return push_opt(m, o);
    if (i == nw) return 0;
    int total = 0;
    for (int k = i; k < nw; k++) total += room[k];
    if (total < left) return 0;
    int most = room[i] < left ? room[i] : left;
    for (int k = most; k >= 0; k--) {
        o->d[wild[i]] += k;
        int r = fill_wilds(c, m, o, wild, room, nw, i + 1, left - k);
        o->d[wild[i]] -= k;
        if (r < 0) return -1;
    }
    return 0;
}

static int run_fillings(ctx_t *c, meld_t *m, int size) {
    int wild[MAXK], nw = 0, wild_held = 0;
    for (int j = 0; j < c->K; j++)
        if ((m->kinds & c->wild_run) >> c->card[j] & 1) {
            wild[nw++] = j;
            wild_held += c->count[j];
        }
    int nold = popcount64(m->old_wild);
    int wild_most = size;
    if (c->half_limit) {
        int most = (m->len + size) / 2 - nold;
        if (most < wild_most) wild_most = most;
    }
    int budget = wild_most < wild_held ? wild_most : wild_held;
    for (int below = 0; below <= size; below++) {
        int above = size - below;
        if (below >= m->ndown || above >= m->nup) continue;
        int spare = budget - m->down[below] - m->up[above];
        if (spare < 0) continue;
        int lo = m->low - below, hi = m->high + above;
        int own[MAXPLACE * 2], nown = 0, nnew = 0;
        uint32_t fresh = 0;
        for (int p = lo; p <= hi; p++) {
            if (p >= m->low && p <= m->high) continue;
            fresh |= (uint32_t)1 << p;
            nnew++;
            if (natural_at(c, m, p) >= 0) own[nown++] = p;
        }
        /* Each subset of ``own`` leaving out at most ``spare`` of them. */
        for (uint32_t out = 0; out < ((uint32_t)1 << nown); out++) {
            int given = __builtin_popcount(out);
            if (given > spare) continue;
            uint32_t kept = 0;
            for (int i = 0; i < nown; i++)
                if (!(out >> i & 1)) kept |= (uint32_t)1 << own[i];
            int wilds = size - (nown - given);
            if (c->adjacent_limit) {
                uint32_t places = m->old_wild | (fresh & ~kept);
                if (places & (places >> 1)) continue;
            }
            opt_t o;
            memset(&o, 0, sizeof o);
            for (int p = 0; p < MAXPLACE; p++)
                if (kept >> p & 1) o.d[natural_at(c, m, p)] += 1;
            if (!wilds) {
                if (push_opt(m, &o) < 0) return -1;
                continue;
            }
            int room[MAXK];
            for (int i = 0; i < nw; i++) room[i] = c->count[wild[i]] - o.d[wild[i]];
            if (fill_wilds(c, m, &o, wild, room, nw, 0, wilds) < 0) return -1;
        }
        (void)nnew;
    }
    return 0;
}

/* ---- a set's lay-offs (_grow_set) --------------------------------------------------- */

/* Whether the set grows validly by ``o``: some role for each card (itself, where it is of
   the set's rank, or wild, where it may play wild in a set) keeps the suits apart (where
   they must differ) and the wild cards at most half.  The most cards playing as themselves
   is best for both limits, so that one way is tried. */
static int set_grows(const ctx_t *c, const meld_t *m, const opt_t *o, int size) {
    int n = m->len + size;
    if (c->set_max >= 0 && n > c->set_max) return 0;
    int wilds = m->set_wild, capable[4] = {0, 0, 0, 0}, forced[4] = {0, 0, 0, 0};
    for (int j = 0; j < c->K; j++) {
        int v = o->d[j];
        if (!v) continue;
        int card = c->card[j];
        int natural = card < 52 && card % 13 + 1 == m->rank;
        int wild = (int)(c->wild_set >> card & 1);
        if (!natural && !wild) return 0;
        if (natural) {
            capable[card / 13] += v;
            if (!wild) forced[card / 13] += v;
        } else {
            wilds += v;
        }
    }
    if (c->distinct_suits)
        for (int suit = 0; suit < 4; suit++) {
            int free_place = !(m->taken >> suit & 1);
            if (forced[suit] > free_place) return 0;
            wilds += capable[suit] > free_place ? capable[suit] - free_place : 0;
        }
    if (c->half_limit && 2 * wilds > n) return 0;
    return 1;
}

/* Every set of ``left`` more of the meld's cards from kind ``j`` on, kept where valid. */
static int set_fillings(ctx_t *c, meld_t *m, opt_t *o, int j, int left, int size) {
    if (left == 0) return set_grows(c, m, o, size) ? push_opt(m, o) : 0;
    if (j == c->K) return 0;
    if (!(m->kinds >> c->card[j] & 1)) return set_fillings(c, m, o, j + 1, left, size);
    int most = c->count[j] < left ? c->count[j] : left;
    for (int k = most; k >= 0; k--) {
        o->d[j] = (uint8_t)k;
        int r = set_fillings(c, m, o, j + 1, left - k, size);
        o->d[j] = 0;
        if (r < 0) return -1;
    }
    return 0;
}

/* The lay-offs of ``size`` cards onto the meld, listed once. */
static int list_size(ctx_t *c, meld_t *m, int size) {
    while (m->listed < size) {
        int k = m->listed + 1, from = m->nopts;
        if (m->is_run == RUN) {
            if (run_fillings(c, m, k) < 0) return -1;
        } else if (m->is_run == SET) {
            opt_t o;
            memset(&o, 0, sizeof o);
            if (set_fillings(c, m, &o, 0, k, k) < 0) return -1;
        } else {
            PyObject *sized = PyList_GET_ITEM(m->given, k - 1);
            if (!PyList_Check(sized)) {
                PyErr_SetString(PyExc_TypeError, "a meld's lay-offs of one size come as a list");
                return -1;
            }
            Py_ssize_t count = PyList_GET_SIZE(sized);
            for (Py_ssize_t i = 0; i < count; i++) {
                PyObject *cards = PyList_GET_ITEM(sized, i);
                if (!PyList_Check(cards) && !PyTuple_Check(cards)) {
                    PyErr_SetString(PyExc_TypeError, "a lay-off is a list of card indices");
                    return -1;
                }
                opt_t o;
                memset(&o, 0, sizeof o);
                Py_ssize_t ncards = PySequence_Fast_GET_SIZE(cards);
                for (Py_ssize_t q = 0; q < ncards; q++) {
                    long index = PyLong_AsLong(PySequence_Fast_GET_ITEM(cards, q));
                    if (index < 0 || index >= NCARDS || c->at[index] < 0) {
                        if (!PyErr_Occurred())
                            PyErr_SetString(PyExc_ValueError, "a lay-off's card is no candidate");
                        return -1;
                    }
                    o.d[c->at[index]]++;
                }
                if (push_opt(m, &o) < 0) return -1;
            }
        }
        finish_size(c, m, from);
        m->start[k] = m->nopts;
        m->listed = k;
    }
    return 0;
}

/* ---- bitsets over the sets' numbers ---------------------------------------------------- */

static void set_range(uint64_t *w, long a, long b) {
    while (a < b) {
        long word = a >> 6;
        int bit = (int)(a & 63);
        long span = 64 - bit;
        if (span > b - a) span = b - a;
        uint64_t mask = span == 64 ? ~(uint64_t)0 : (((uint64_t)1 << span) - 1) << bit;
        w[word] |= mask;
        a += span;
    }
}

static inline int has(const uint64_t *w, long bit) { return (int)(w[bit >> 6] >> (bit & 63) & 1); }

/* ---- the search (_Search.choose) ------------------------------------------------------- */

typedef struct {
    long number;
    int size, laid, order;
} member_t;

static int cmp_member(const void *a, const void *b) {
    const member_t *x = a, *y = b;
    if (x->laid != y->laid) return x->laid > y->laid ? -1 : 1;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    return x->number < y->number ? -1 : (x->number > y->number);
}

typedef struct {
    ctx_t *c;
    PyObject *value, *kinds, *starts;
    int *scored;
    /* The one search of the whole hand (payme.layoff._Starts), made when first needed:
       made 0 (not yet), 1 (here), -1 (none: each set is evaluated by ``value``). */
    int made;
    PyObject *state0, *search, *unit[MAXK];
    long pure0, aside0;
    int wild[MAXK], iso[MAXK], pts[MAXK];
} scoring_t;

static void scoring_clear(scoring_t *s) {
    Py_CLEAR(s->state0);
    Py_CLEAR(s->search);
    for (int j = 0; j < MAXK; j++) Py_CLEAR(s->unit[j]);
}

/* Ask Python for the one search of the whole hand: None, or (state0, pure0, aside0,
   search's value, ((wild, isolated, points, unit) for each kind)). */
static int make_starts(scoring_t *s) {
    PyObject *got = PyObject_CallOneArg(s->starts, s->kinds);
    if (!got) return -1;
    if (got == Py_None) {
        Py_DECREF(got);
        s->made = -1;
        return 0;
    }
    PyObject *table;
    if (!PyArg_ParseTuple(got, "OllOO!", &s->state0, &s->pure0, &s->aside0, &s->search,
                          &PyTuple_Type, &table) ||
        PyTuple_GET_SIZE(table) != s->c->K) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one row a kind");
        s->state0 = s->search = NULL;
        Py_DECREF(got);
        return -1;
    }
    Py_INCREF(s->state0);
    Py_INCREF(s->search);
    for (int j = 0; j < s->c->K; j++) {
        PyObject *row = PyTuple_GET_ITEM(table, j), *unit;
        if (!PyArg_ParseTuple(row, "iiiO", &s->wild[j], &s->iso[j], &s->pts[j], &unit)) {
            Py_DECREF(got);
            return -1;
        }
        Py_INCREF(unit);
        s->unit[j] = unit;
    }
    Py_DECREF(got);
    s->made = 1;
    return 0;
}

/* _Starts.__call__: the fewest points less ``d[j]`` copies of each kind. */
static long start_value(scoring_t *s, const int *d) {
    long pure = 0, aside = 0;
    PyObject *state = PyLong_FromLong(0);
    if (!state) return -1;
    for (int j = 0; j < s->c->K; j++) {
        int v = d[j];
        if (!v) continue;
        if (s->wild[j]) {
            pure += v;
            continue;
        }
        int set_aside = v < s->iso[j] ? v : s->iso[j];
        aside += (long)set_aside * s->pts[j];
        if (v > set_aside) {
            PyObject *k = PyLong_FromLong(v - set_aside);
            PyObject *part = k ? PyNumber_Multiply(k, s->unit[j]) : NULL;
            Py_XDECREF(k);
            PyObject *sum = part ? PyNumber_Add(state, part) : NULL;
            Py_XDECREF(part);
            Py_DECREF(state);
            if (!sum) return -1;
            state = sum;
        }
    }
    PyObject *from = PyNumber_Subtract(s->state0, state);
    Py_DECREF(state);
    if (!from) return -1;
    PyObject *b = PyLong_FromLong(s->pure0 - pure), *one = PyLong_FromLong(1);
    PyObject *got = (b && one) ? PyObject_CallFunctionObjArgs(s->search, from, b, one, NULL) : NULL;
    Py_DECREF(from);
    Py_XDECREF(b);
    Py_XDECREF(one);
    if (!got) return -1;
    long v = PyLong_AsLong(got);
    Py_DECREF(got);
    if (v == -1 && PyErr_Occurred()) return -1;
    return v + s->aside0 - aside;
}

static void digits_of(const ctx_t *c, long number, int *d) {
    for (int j = 0; j < c->K; j++) {
        d[j] = (int)(number % c->radix[j]);
        number /= c->radix[j];
    }
}

/* The fewest points of the hand less the set ``number``, given its bound; -1 on error. */
static int score(scoring_t *s, long number, int bound) {
    if (s->scored[number] >= 0) return s->scored[number];
    ctx_t *c = s->c;
    int d[MAXK], beyond = 0;
    digits_of(c, number, d);
    for (int j = 0; j < c->K; j++)
        if (d[j] > c->dead[j]) beyond = 1;
    int found;
    if (!beyond) {
        found = bound > 0 ? bound : 0;
    } else if (s->made >= 0 && (s->made || make_starts(s) == 0) && s->made > 0) {
        long v = start_value(s, d);
        if (v == -1 && PyErr_Occurred()) return -1;
        found = (int)v;
    } else if (PyErr_Occurred()) {
        return -1;
    } else {
        PyObject *digits = PyTuple_New(c->K);
        if (!digits) return -1;
        for (int j = 0; j < c->K; j++) PyTuple_SET_ITEM(digits, j, PyLong_FromLong(d[j]));
        PyObject *got = PyObject_CallFunctionObjArgs(s->value, s->kinds, digits, NULL);
        Py_DECREF(digits);
        if (!got) return -1;
        long v = PyLong_AsLong(got);
        Py_DECREF(got);
        if (v == -1 && PyErr_Occurred()) return -1;
        found = (int)v;
    }
    s->scored[number] = found;
    return found;
}

static long call_priced(PyObject *priced, uint64_t mask) {
    PyObject *arg = PyLong_FromUnsignedLongLong(mask);
    if (!arg) return -1;
    PyObject *got = PyObject_CallOneArg(priced, arg);
    Py_DECREF(arg);
    if (!got) return -1;
    long v = PyLong_AsLong(got);
    Py_DECREF(got);
    return v;
}

static int get_long(PyObject *tuple, Py_ssize_t i, long *out) {
    PyObject *item = PyTuple_GetItem(tuple, i);
    if (!item) return -1;
    *out = PyLong_AsLong(item);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int get_mask(PyObject *tuple, Py_ssize_t i, uint64_t *out) {
    PyObject *item = PyTuple_GetItem(tuple, i);
    if (!item) return -1;
    *out = PyLong_AsUnsignedLongLongMask(item);
    return (*out == (uint64_t)-1 && PyErr_Occurred()) ? -1 : 0;
}

static PyObject *layoff_choose(PyObject *self, PyObject *args) {
    (void)self;
    long top;
    Py_buffer hand_buf, dead_buf;
    PyObject *points, *melds, *rules, *priced, *starts, *value;
    if (!PyArg_ParseTuple(args, "ly*y*O!O!O!OOO", &top, &hand_buf, &dead_buf, &PyTuple_Type,
                          &points, &PyList_Type, &melds, &PyTuple_Type, &rules, &priced,
                          &starts, &value))
        return NULL;
    PyObject *result = NULL, *kinds_tuple = NULL;
    meld_t *ms = NULL;
    uint64_t *sets = NULL;
    /* The numbers whose j-th digit is at most v (masks[j * MAXSIZE + v]), made when first
       needed; only the entries of the kinds and copies of this hand are used. */
    uint64_t *masks[MAXK * MAXSIZE];
    int masks_made = 0;
    int *scored = NULL;
    member_t *members = NULL;
    Py_ssize_t nmelds = PyList_GET_SIZE(melds);
    ctx_t cx;
    ctx_t *c = &cx;
    memset(c, 0, sizeof cx);
    scoring_t s;
    memset(&s, 0, sizeof s);
    if (hand_buf.len != NCARDS || dead_buf.len != NCARDS || PyTuple_GET_SIZE(points) != NCARDS) {
        PyErr_SetString(PyExc_ValueError, "the hand, the deadwood and the points go by card index");
        goto done;
    }
    const uint8_t *hand = hand_buf.buf, *dead = dead_buf.buf;
    long flag;
    if (get_long(rules, 0, &flag) < 0) goto done;
    c->half_limit = (int)flag;
    if (get_long(rules, 1, &flag) < 0) goto done;
    c->adjacent_limit = (int)flag;
    if (get_long(rules, 2, &flag) < 0) goto done;
    c->ace_high = (int)flag;
    if (get_long(rules, 3, &flag) < 0) goto done;
    c->run_most = (int)flag;
    if (get_mask(rules, 4, &c->wild_run) < 0) goto done;
    if (get_long(rules, 5, &flag) < 0) goto done;
    c->distinct_suits = (int)flag;
    if (get_long(rules, 6, &flag) < 0) goto done;
    c->set_max = (int)flag;
    if (get_mask(rules, 7, &c->wild_set) < 0) goto done;
    uint64_t held = 0;
    int total = 0;
    for (int i = 0; i < NCARDS; i++) {
        if (hand[i]) held |= (uint64_t)1 << i;
        total += hand[i];
    }
    if (total >= MAXSIZE) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    ms = calloc(nmelds ? (size_t)nmelds : 1, sizeof(meld_t));
    if (!ms) {
        PyErr_NoMemory();
        goto done;
    }
    /* The open melds: room for some cards. */
    int M = 0;
    for (Py_ssize_t i = 0; i < nmelds; i++) {
        PyObject *d = PyList_GET_ITEM(melds, i);
        meld_t *m = &ms[M];
        long v;
        memset(m, 0, sizeof *m);
        m->pos = (int)i;
        if (!PyTuple_Check(d)) {
            PyErr_SetString(PyExc_TypeError, "a meld is described by a tuple");
            goto done;
        }
        if (get_long(d, 0, &v) < 0) goto done;
        m->is_run = (int)v;
        if (get_mask(d, 1, &m->cand) < 0 || get_mask(d, 2, &m->fit) < 0) goto done;
        m->kinds = m->cand & held;
        int sum = 0;
        for (int q = 0; q < NCARDS; q++)
            if (m->kinds >> q & 1) sum += hand[q];
        if (m->is_run == SET) {
            long len, rank, taken, wilds;
            if (get_long(d, 3, &len) < 0 || get_long(d, 4, &rank) < 0 ||
                get_long(d, 5, &taken) < 0 || get_long(d, 6, &wilds) < 0)
                goto done;
            m->len = (int)len;
            m->rank = (int)rank;
            m->taken = (int)taken;
            m->set_wild = (int)wilds;
            int room = c->set_max >= 0 ? c->set_max - m->len : sum;
            if (room > sum) room = sum;
            m->room = room > 0 ? room : 0;
        } else if (m->is_run == RUN) {
            long len, low, high, old_wild, base, top_place;
            if (get_long(d, 3, &len) < 0 || get_long(d, 4, &low) < 0 ||
                get_long(d, 5, &high) < 0 || get_long(d, 6, &old_wild) < 0 ||
                get_long(d, 7, &base) < 0 || get_long(d, 8, &top_place) < 0)
                goto done;
            m->len = (int)len;
            m->low = (int)low;
            m->high = (int)high;
            m->old_wild = (uint32_t)old_wild;
            m->base = (int)base;
            m->top = (int)top_place;
            int room = c->run_most - m->len;
            if (room > sum) room = sum;
            m->room = room > 0 ? room : 0;
            if (m->room) reach(c, m, hand);
        } else {
            long room;
            if (get_long(d, 3, &room) < 0) goto done;
            m->given = PyTuple_GetItem(d, 4);
            if (!m->given) goto done;
            if (!PyList_Check(m->given) || PyList_GET_SIZE(m->given) < room) {
                PyErr_SetString(PyExc_TypeError, "a meld's lay-offs come as a list by size");
                goto done;
            }
            m->room = (int)room;
            /* Its kinds: the cards of its lay-offs' (Python trimmed nothing). */
        }
        if (m->room > MAXSIZE) {
            result = Py_None;
            Py_INCREF(result);
            goto done;
        }
        if (m->room) M++;
    }
    if (!M || top == 0) goto nothing;
    if (M > MAXMELDS) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    /* The candidate kinds, in card order. */
    uint64_t all = 0;
    for (int i = 0; i < M; i++) all |= ms[i].kinds;
    for (int i = 0; i < NCARDS; i++) c->at[i] = -1;
    for (int i = 0; i < NCARDS; i++)
        if (all >> i & 1) {
            if (c->K == MAXK) {
                result = Py_None;
                Py_INCREF(result);
                goto done;
            }
            c->at[i] = c->K;
            c->card[c->K] = i;
            c->count[c->K] = hand[i];
            c->dead[c->K] = dead[i];
            long p = PyLong_AsLong(PyTuple_GET_ITEM(points, i));
            if (p == -1 && PyErr_Occurred()) goto done;
            c->pts[c->K] = (int)p;
            c->K++;
        }
    c->n = 1;
    for (int j = 0; j < c->K; j++) {
        c->radix[j] = c->count[j] + 1;
        c->stride[j] = c->n;
        c->n *= c->radix[j];
        if (c->n > MAXN) {
            result = Py_None;
            Py_INCREF(result);
            goto done;
        }
    }
    long most_laid = 0;
    for (int j = 0; j < c->K; j++) most_laid += (long)c->pts[j] * c->count[j];
    long floor = top - most_laid > 0 ? top - most_laid : 0;
    if (floor >= top) goto nothing;
    int some_melded = 0;
    for (int j = 0; j < c->K; j++)
        if (c->dead[j] < c->count[j]) some_melded = 1;
    if (some_melded) {
        /* _Search._floor_free */
        long free_floor = call_priced(priced, all);
        if (free_floor == -1 && PyErr_Occurred()) goto done;
        if (free_floor < top) {
            uint64_t alone = 0;
            for (int i = 0; i < M; i++) alone |= ms[i].fit;
            uint64_t found = all & alone;
            for (int i = 0; i < M; i++) {
                meld_t *m = &ms[i];
                for (int k = 1; k <= m->room; k++) {
                    if (!(m->kinds & ~found)) break;
                    if (list_size(c, m, k) < 0) goto done;
                    for (int q = m->start[k - 1]; q < m->start[k]; q++)
                        for (int j = 0; j < c->K; j++)
                            if (m->opts[q].d[j]) found |= (uint64_t)1 << c->card[j];
                }
            }
            if (!found)
                free_floor = top;
            else if (found != all) {
                free_floor = call_priced(priced, found);
                if (free_floor == -1 && PyErr_Occurred()) goto done;
            }
        }
        if (free_floor > floor) floor = free_floor;
        if (floor >= top) goto nothing;
    }
    /* _LaidSets: sets[i], the sets the melds from the i-th on take together. */
    for (int i = 0; i < M; i++)
        if (list_size(c, &ms[i], ms[i].room) < 0) goto done;
    long nw = (c->n + 63) >> 6, n = c->n;
    sets = calloc((size_t)(M + 1) * (size_t)nw, sizeof(uint64_t));
    for (int j = 0; j < c->K; j++)
        for (int v = 0; v < c->radix[j]; v++) masks[j * MAXSIZE + v] = NULL;
    masks_made = 1;
    uint64_t *tmp = NULL;
    if (!sets) {
        PyErr_NoMemory();
        goto done;
    }
    tmp = calloc((size_t)nw, sizeof(uint64_t));
    if (!tmp) {
        PyErr_NoMemory();
        goto done;
    }
    sets[(size_t)M * nw] = 1;
    for (int i = M - 1; i >= 0; i--) {
        uint64_t *family = sets + (size_t)(i + 1) * nw, *grown = sets + (size_t)i * nw;
        memcpy(grown, family, (size_t)nw * sizeof(uint64_t));
        meld_t *m = &ms[i];
        for (int q = 0; q < m->nopts; q++) {
            opt_t *o = &m->opts[q];
            memcpy(tmp, family, (size_t)nw * sizeof(uint64_t));
            for (int j = 0; j < c->K; j++) {
                if (!o->d[j]) continue;
                int v = (int)c->radix[j] - 1 - o->d[j];
                if (v < 0) {
                    memset(tmp, 0, (size_t)nw * sizeof(uint64_t));
                    break;
                }
                uint64_t **slot = &masks[j * MAXSIZE + v];
                if (!*slot) {
                    *slot = calloc((size_t)nw, sizeof(uint64_t));
                    if (!*slot) {
                        free(tmp);
                        PyErr_NoMemory();
                        goto done;
                    }
                    long period = c->stride[j] * c->radix[j], span = (v + 1) * c->stride[j];
                    for (long b = 0; b < n; b += period)
                        set_range(*slot, b, b + span < n ? b + span : n);
                }
                for (long w = 0; w < nw; w++) tmp[w] &= (*slot)[w];
            }
            long ws = o->number >> 6;
            int bs = (int)(o->number & 63);
            for (long w = nw - 1 - ws; w >= 0; w--) {
                uint64_t x = tmp[w];
                if (!x) continue;
                grown[w + ws] |= x << bs;
                if (bs && w + ws + 1 < nw) grown[w + ws + 1] |= x >> (64 - bs);
            }
        }
    }
    free(tmp);
    /* The members, by points laid off (most first), then size (in the order sizes first
       appear among the numbers), then number: _LaidSets.by_points and ranked. */
    long nm = 0;
    for (long w = 0; w < nw; w++) nm += popcount64(sets[w]);
    members = malloc((size_t)(nm ? nm : 1) * sizeof(member_t));
    scored = malloc((size_t)n * sizeof(int));
    if (!members || !scored) {
        PyErr_NoMemory();
        goto done;
    }
    for (long i = 0; i < n; i++) scored[i] = -1;
    int order_of[MAXSIZE + 1], orders = 0, most_size = 0;
    for (int k = 0; k <= MAXSIZE; k++) order_of[k] = -1;
    nm = 0;
    for (long w = 0; w < nw; w++) {
        uint64_t x = sets[w];
        while (x) {
            long number = (w << 6) + __builtin_ctzll(x);
            x &= x - 1;
            if (!number) continue;
            int d[MAXK], size = 0, laid = 0;
            digits_of(c, number, d);
            for (int j = 0; j < c->K; j++) {
                size += d[j];
                laid += d[j] * c->pts[j];
            }
            if (order_of[size] < 0) order_of[size] = orders++;
            if (size > most_size) most_size = size;
            members[nm].number = number;
            members[nm].size = size;
            members[nm].laid = laid;
            members[nm].order = order_of[size];
            nm++;
        }
    }
    qsort(members, (size_t)nm, sizeof(member_t), cmp_member);
    kinds_tuple = PyTuple_New(c->K);
    if (!kinds_tuple) goto done;
    for (int j = 0; j < c->K; j++) PyTuple_SET_ITEM(kinds_tuple, j, PyLong_FromLong(c->card[j]));
    s.c = c;
    s.value = value;
    s.kinds = kinds_tuple;
    s.starts = starts;
    s.scored = scored;
    long fewest = top;
    for (long i = 0; i < nm;) {
        long e = i;
        while (e < nm && members[e].laid == members[i].laid && members[e].size == members[i].size)
            e++;
        long bound = top - members[i].laid;
        if ((bound > 0 ? bound : 0) >= fewest) break;
        for (long q = i; q < e; q++) {
            int got = score(&s, members[q].number, (int)bound);
            if (got < 0) goto done;
            if (got < fewest) fewest = got;
        }
        if (fewest <= floor) break;
        i = e;
    }
    if (fewest >= top) goto nothing;
    /* The fewest cards reaching it, most points laid off, the first choice. */
    for (int size = 1; size <= most_size; size++) {
        long best = -1;
        int best_first[MAXMELDS];
        for (long i = 0; i < nm;) {
            if (members[i].size != size) {
                i++;
                continue;
            }
            int laid = members[i].laid;
            long bound = top - laid;
            if ((bound > 0 ? bound : 0) > fewest) break;
            long e = i;
            for (; e < nm && members[e].laid == laid; e++) {
                if (members[e].size != size) continue;
                int got = score(&s, members[e].number, (int)bound);
                if (got < 0) goto done;
                if (got != fewest) continue;
                /* _LaidSets.first: each meld's first lay-off after which the rest can go
                   onto the later melds. */
                int first[MAXMELDS], d[MAXK];
                long number = members[e].number;
                digits_of(c, number, d);
                for (int mi = 0; mi < M; mi++) {
                    first[mi] = 0;
                    if (!number) continue;
                    const uint64_t *later = sets + (size_t)(mi + 1) * nw;
                    if (has(later, number)) continue;
                    meld_t *m = &ms[mi];
                    int place = 0;
                    for (int q = 0; q < m->nopts; q++) {
                        opt_t *o = &m->opts[q];
                        if (o->number > number) continue;
                        int fits = 1;
                        for (int j = 0; j < c->K; j++)
                            if (d[j] < o->d[j]) fits = 0;
                        if (fits && has(later, number - o->number)) {
                            place = q + 1;
                            break;
                        }
                    }
                    if (!place) {
                        PyErr_SetString(PyExc_AssertionError, "a set laid off without a first choice");
                        goto done;
                    }
                    opt_t *o = &m->opts[place - 1];
                    for (int j = 0; j < c->K; j++) d[j] -= o->d[j];
                    number -= o->number;
                    first[mi] = place;
                }
                int better = best < 0;
                if (!better)
                    for (int mi = 0; mi < M; mi++)
                        if (first[mi] != best_first[mi]) {
                            better = first[mi] < best_first[mi];
                            break;
                        }
                if (better) {
                    best = members[e].number;
                    for (int mi = 0; mi < M; mi++) best_first[mi] = first[mi];
                }
            }
            if (best >= 0) {
                PyObject *choice = PyList_New(0);
                if (!choice) goto done;
                for (int mi = 0; mi < M; mi++) {
                    if (!best_first[mi]) continue;
                    opt_t *o = &ms[mi].opts[best_first[mi] - 1];
                    PyObject *cards = PyTuple_New(o->size);
                    if (!cards) {
                        Py_DECREF(choice);
                        goto done;
                    }
                    int at = 0;
                    for (int j = 0; j < c->K; j++)
                        for (int v = 0; v < o->d[j]; v++)
                            PyTuple_SET_ITEM(cards, at++, PyLong_FromLong(c->card[j]));
                    PyObject *pair = Py_BuildValue("(iN)", ms[mi].pos, cards);
                    if (!pair || PyList_Append(choice, pair) < 0) {
                        Py_XDECREF(pair);
                        Py_DECREF(choice);
                        goto done;
                    }
                    Py_DECREF(pair);
                }
                result = Py_BuildValue("(lN)", fewest, choice);
                goto done;
            }
            i = e;
        }
    }
    PyErr_SetString(PyExc_AssertionError, "the fewest points were reached by no set");
    goto done;
nothing:
    result = Py_BuildValue("(lO)", top, Py_None);
done:
    PyBuffer_Release(&hand_buf);
    PyBuffer_Release(&dead_buf);
    if (ms) {
        for (Py_ssize_t i = 0; i < nmelds; i++) free(ms[i].opts);
        free(ms);
    }
    if (masks_made)
        for (int j = 0; j < c->K; j++)
            for (int v = 0; v < c->radix[j]; v++) free(masks[j * MAXSIZE + v]);
    free(sets);
    free(scored);
    free(members);
    Py_XDECREF(kinds_tuple);
    scoring_clear(&s);
    return result;
}

static PyMethodDef layoff_methods[] = {
    {"choose", layoff_choose, METH_VARARGS,
     "choose(top, hand, dead, points, melds, rules, priced, starts, value): the fewest points and "
     "the lay-offs (payme.layoff._Search.choose); None where the position is beyond it."},
    {NULL, NULL, 0, NULL},
};

/* A digest of this file, given by setup.py: payme.solver.backend refuses a build whose
   digest differs from the _layoff_core.c beside it (an out-of-date build). */
#ifndef PAYME_LAYOFF_SOURCE
#define PAYME_LAYOFF_SOURCE ""
#endif

static struct PyModuleDef layoffmodule = {
    PyModuleDef_HEAD_INIT, "_layoff_core",
    "The compiled heart of payme's lay-off search (see payme/solver/_layoff_core.c).", -1,
    layoff_methods,
};

PyMODINIT_FUNC PyInit__layoff_core(void) {
    PyObject *m = PyModule_Create(&layoffmodule);
    if (!m) return NULL;
    if (PyModule_AddStringConstant(m, "SOURCE", PAYME_LAYOFF_SOURCE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
