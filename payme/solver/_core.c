/* The compiled core of the hand solver: the two searches of payme.solver, in C.
 *
 * The pure-Python searches stay the reference and the fallback; this file does exactly what
 * they do, move for move, so every answer is the same (checked on a million hands by
 * `python -m benchmarks.equality`):
 *
 *   GSearch  the general search, payme.solver.search._Solver (one hand, wild cards of every
 *            scope, a discard owed or not); its memo lives as long as the hand's Search.
 *   NSearch  the lean search of hands without wild cards, payme.solver.natural (plain and
 *            with a discard owed); its memo is kept across hands, as the Python one is.
 *
 * A state is the Python search's packed int, held here as four 64-bit words (256 bits:
 * every preset needs at most 170).  Python checks that a hand's state fits before it
 * picks this core, and searches the hand itself otherwise.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NW 4
#define NREG 52
#define INF ((int64_t)1 << 40)

typedef struct {
    uint64_t w[NW];
} st_t;

static inline int st_zero(const st_t *a) { return !(a->w[0] | a->w[1] | a->w[2] | a->w[3]); }

static inline int st_eq(const st_t *a, const st_t *b) {
    return a->w[0] == b->w[0] && a->w[1] == b->w[1] && a->w[2] == b->w[2] && a->w[3] == b->w[3];
}

static inline int st_low(const st_t *a) {
    for (int i = 0; i < NW; i++)
        if (a->w[i]) return i * 64 + __builtin_ctzll(a->w[i]);
    return -1;
}

static inline void st_sub(st_t *r, const st_t *a, const st_t *b) {
    uint64_t borrow = 0;
    for (int i = 0; i < NW; i++) {
        uint64_t x = a->w[i], y = b->w[i];
        uint64_t d = x - y - borrow;
        borrow = (x < y) | ((x == y) & borrow);
        r->w[i] = d;
    }
}

/* (state | guard) - delta keeps every guard bit: no field of delta exceeds the state's. */
static inline int st_fits(const st_t *sg, const st_t *delta, const st_t *guard) {
    st_t t;
    st_sub(&t, sg, delta);
    for (int i = 0; i < NW; i++)
        if ((t.w[i] & guard->w[i]) != guard->w[i]) return 0;
    return 1;
}

static inline int st_popand(const st_t *a, const st_t *m) {
    int n = 0;
    for (int i = 0; i < NW; i++) n += __builtin_popcountll(a->w[i] & m->w[i]);
    return n;
}

/* Bits [pos, pos + n) of a state, n <= 32. */
static inline uint64_t st_bits(const st_t *a, int pos, int n) {
    int i = pos / 64, o = pos % 64;
    uint64_t x = a->w[i] >> o;
    if (o && i + 1 < NW) x |= a->w[i + 1] << (64 - o);
    return x & (((uint64_t)1 << n) - 1);
}

static inline uint64_t st_hash(const st_t *a, int64_t b) {
    uint64_t h = (uint64_t)b * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < NW; i++) {
        h ^= a->w[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ULL;
    }
    return h ^ (h >> 31);
}

/* Python int <-> state.  Returns -1 (with an exception set) when it is negative or does
 * not fit in 256 bits. */
static int st_from(PyObject *o, st_t *s) {
    unsigned char buf[NW * 8];
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "a packed state must be an int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(
        o, buf, sizeof(buf),
        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
            Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (need < 0) return -1;
    if ((size_t)need > sizeof(buf)) {
        PyErr_SetString(PyExc_OverflowError, "a packed state wider than 256 bits");
        return -1;
    }
#else
    if (_PyLong_AsByteArray((PyLongObject *)o, buf, sizeof(buf), 1, 0) < 0) return -1;
#endif
    for (int i = 0; i < NW; i++) {
        uint64_t x = 0;
        for (int k = 7; k >= 0; k--) x = x << 8 | buf[i * 8 + k];
        s->w[i] = x;
    }
    return 0;
}

/* State -> Python int. */
static PyObject *st_to(const st_t *s) {
    unsigned char buf[NW * 8];
    for (int i = 0; i < NW; i++)
        for (int k = 0; k < 8; k++) buf[i * 8 + k] = (unsigned char)(s->w[i] >> (8 * k));
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(buf, sizeof(buf), Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(buf, sizeof(buf), 1, 0);
#endif
}

/* ---------------------------------------------------------------------------------------
 * Memo: open addressing on (state, balance); the value as the Python memo keeps it
 * (exact: value << 16 | pick + 8 in the general search, the value in the lean one; a cut
 * off: -(lower bound + 1)), and for the lean search the best move's id. */

typedef struct {
    st_t key;
    int32_t b;
    int32_t used;
    int64_t val;
    int32_t pick;
} entry_t;

typedef struct {
    entry_t *slots;
    size_t cap; /* a power of two, or 0 before the first use */
    size_t n;
    int32_t gen; /* the slots in use hold it in ``used``: clearing moves to the next */
} table_t;

static void table_free(table_t *t) {
    PyMem_Free(t->slots);
    t->slots = NULL;
    t->cap = t->n = 0;
    t->gen = 0;
}

static inline entry_t *table_find(const table_t *t, const st_t *k, int32_t b) {
    if (!t->cap) return NULL;
    size_t m = t->cap - 1, i = st_hash(k, b) & m;
    for (;;) {
        entry_t *e = &t->slots[i];
        if (e->used != t->gen) return NULL;
        if (e->b == b && st_eq(&e->key, k)) return e;
        i = (i + 1) & m;
    }
}

static int table_grow(table_t *t) {
    size_t cap = t->cap ? t->cap * 2 : 64;
    entry_t *slots = PyMem_Calloc(cap, sizeof(entry_t));
    if (!slots) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t j = 0; j < t->cap; j++) {
        entry_t *e = &t->slots[j];
        if (e->used != t->gen) continue;
        size_t i = st_hash(&e->key, e->b) & (cap - 1);
        while (slots[i].used) i = (i + 1) & (cap - 1);
        slots[i] = *e;
        slots[i].used = 1;
    }
    PyMem_Free(t->slots);
    t->slots = slots;
    t->cap = cap;
    t->gen = 1; /* new slots: zero, so free whatever the generation was */
    return 0;
}

/* The entry of (k, b), made (unused fields zero) when missing; NULL when out of memory. */
static entry_t *table_put(table_t *t, const st_t *k, int32_t b) {
    if (2 * (t->n + 1) > t->cap && table_grow(t) < 0) return NULL;
    size_t m = t->cap - 1, i = st_hash(k, b) & m;
    for (;;) {
        entry_t *e = &t->slots[i];
        if (e->used != t->gen) {
            e->used = t->gen;
            e->key = *k;
            e->b = b;
            e->val = 0;
            e->pick = 0;
            t->n++;
            return e;
        }
        if (e->b == b && st_eq(&e->key, k)) return e;
        i = (i + 1) & m;
    }
}

/* Forget every entry: the next generation (its slots are free), the slots kept. */
static void table_clear(table_t *t) {
    t->n = 0;
    if (!t->cap) return;
    if (t->gen == INT32_MAX) {
        memset(t->slots, 0, t->cap * sizeof(entry_t));
        t->gen = 0;
    }
    t->gen++;
}

/* ---------------------------------------------------------------------------------------
 * The layout of a rule set's packed state, shared by both searches: field width, cost of
 * each position, which positions hold wild cards of a rank, and the guard bits. */

typedef struct {
    int width;
    int64_t cost[NREG];
    char conv[NREG];
    st_t unit[NREG];
    st_t conv_masks[8]; /* bit k of every wild-of-a-rank field */
    int n_conv_masks;
} shape_t;

static int int_list(PyObject *seq, int64_t *out, Py_ssize_t n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    return 0;
}

static int shape_init(shape_t *s, int width, PyObject *cost, PyObject *conv, PyObject *masks) {
    if (width < 1 || width * NREG > NW * 64) {
        PyErr_SetString(PyExc_ValueError, "field width out of range");
        return -1;
    }
    s->width = width;
    if (int_list(cost, s->cost, NREG, "cost") < 0) return -1;
    int64_t cv[NREG];
    if (int_list(conv, cv, NREG, "conv") < 0) return -1;
    for (int j = 0; j < NREG; j++) {
        s->conv[j] = cv[j] != 0;
        memset(&s->unit[j], 0, sizeof(st_t));
        int bit = j * width;
        s->unit[j].w[bit / 64] = (uint64_t)1 << (bit % 64);
    }
    PyObject *fast = PySequence_Fast(masks, "conv_masks");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > 8) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many conv masks");
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        if (st_from(PySequence_Fast_GET_ITEM(fast, k), &s->conv_masks[k]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    s->n_conv_masks = (int)n;
    Py_DECREF(fast);
    return 0;
}

/* The position of a state's lowest card (NREG: only scoped wild cards are left). */
static inline int slot_of(const shape_t *s, const st_t *state) {
    int j = st_low(state) / s->width;
    return j < NREG ? j : NREG;
}

/* Fields(width, cost, conv, conv_masks): one rule set's layout and pricing, made once and
 * given to every hand's GSearch (so a hand does not convert them again). */
typedef struct {
    PyObject_HEAD
    shape_t s;
} Fields;

static PyObject *Fields_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    int width;
    PyObject *cost, *conv, *masks;
    if (!PyArg_ParseTuple(args, "iOOO", &width, &cost, &conv, &masks)) return NULL;
    Fields *f = (Fields *)type->tp_alloc(type, 0);
    if (f && shape_init(&f->s, width, cost, conv, masks) < 0) {
        Py_DECREF(f);
        return NULL;
    }
    return (PyObject *)f;
}

static PyTypeObject FieldsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "payme.solver._core.Fields",
    .tp_basicsize = sizeof(Fields),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A rule set's packed-state layout and card costs, for GSearch.",
    .tp_new = Fields_new,
};

/* ---------------------------------------------------------------------------------------
 * GSearch: the general search of one hand. */

typedef struct {
    st_t delta;
    int64_t k;
} gmove_t;

typedef struct {
    PyObject_HEAD
    shape_t s;
    const shape_t *sp; /* &s, or a Hands' own (a search made inside Hands.evaluate) */
    st_t guard;
    int n_any;
    int64_t *end[2]; /* [owed][b]: the leftover cost with a discard owed (1) or not (0) */
    gmove_t *moves;
    int start[NREG + 1];
    /* scoped wild cards (GROUP, SEQ): their counts' fields and the leftover table */
    int scoped, shift, gbits, n_set, n_run;
    uint64_t mask_g, mask_q;
    int64_t *term; /* [owed][b][g][q] */
    table_t memo[2]; /* [owed] */
} GSearch;

static inline int64_t g_end(const GSearch *g, int owed, int64_t b) {
    return (0 <= b && b <= g->n_any) ? g->end[owed][b] : INF;
}

static int64_t g_end_scoped(const GSearch *g, const st_t *state, int64_t b, int owed) {
    if (!(0 <= b && b <= g->n_any)) return INF;
    uint64_t x = st_bits(state, g->shift, 32);
    uint64_t gq = x & g->mask_g, q = (x >> (g->gbits + 1)) & g->mask_q;
    size_t i = (((size_t)owed * (g->n_any + 1) + (size_t)b) * (g->n_set + 1) + gq) *
                   (g->n_run + 1) + q;
    return g->term[i];
}

/* -2: out of memory (an exception is set). */
static int64_t g_solve(GSearch *g, const st_t *state, int64_t b, int64_t budget, int owed) {
    const shape_t *s = g->sp;
    if (st_zero(state)) return g_end(g, owed, b);
    int j = slot_of(s, state);
    if (j == NREG) return g_end_scoped(g, state, b, owed);
    int m0 = g->start[j], m1 = g->start[j + 1];
    if (m0 == m1 && !owed && !s->conv[j]) {
        /* Starts no meld, cannot be wild, no discard owed: deadwood, and so for each such
         * card after it. */
        int64_t spent = 0;
        st_t x = *state;
        for (;;) {
            spent += s->cost[j];
            if (spent >= budget) return spent;
            st_sub(&x, &x, &s->unit[j]);
            if (st_zero(&x)) return spent + g_end(g, owed, b);
            j = slot_of(s, &x);
            if (j == NREG || g->start[j] != g->start[j + 1] || s->conv[j]) break;
        }
        int64_t v = g_solve(g, &x, b, budget - spent, owed);
        return v == -2 ? -2 : spent + v;
    }
    table_t *memo = &g->memo[owed];
    entry_t *e = table_find(memo, state, (int32_t)b);
    if (e) {
        int64_t hit = e->val;
        if (hit >= 0) return hit >> 16;
        if (-hit - 1 >= budget) return -hit - 1;
    }
    st_t rest, nxt, sg;
    st_sub(&rest, state, &s->unit[j]);
    for (int i = 0; i < NW; i++) sg.w[i] = state->w[i] | g->guard.w[i];
    int64_t best = budget, v;
    int pick = 0;
    for (int i = m0; i < m1; i++) {
        const gmove_t *mv = &g->moves[i];
        if (!st_fits(&sg, &mv->delta, &g->guard)) continue;
        int64_t nb = b - mv->k;
        st_sub(&nxt, state, &mv->delta);
        if (nb < 0) {
            /* Borrowed wild cards must be repaid by wild cards of a rank still to come. */
            int64_t have = 0;
            for (int k = 0; k < s->n_conv_masks; k++)
                have += (int64_t)st_popand(&nxt, &s->conv_masks[k]) << k;
            if (nb + have < 0) continue;
        }
        if (st_zero(&nxt))
            v = nb <= g->n_any ? g->end[owed][nb] : INF;
        else if ((v = g_solve(g, &nxt, nb, best, owed)) == -2)
            return -2;
        if (v < best) {
            best = v;
            pick = i - m0;
            if (!v) break;
        }
    }
    if (best && owed) {
        if ((v = g_solve(g, &rest, b, best, 0)) == -2) return -2;
        if (v < best) best = v, pick = -2;
    }
    if (best && s->conv[j]) {
        if (st_zero(&rest))
            v = (-1 <= b && b < g->n_any) ? g->end[owed][b + 1] : INF;
        else if ((v = g_solve(g, &rest, b + 1, best, owed)) == -2)
            return -2;
        if (v < best) best = v, pick = -3;
    }
    int64_t c = s->cost[j];
    if (best > c) {
        if (st_zero(&rest))
            v = g_end(g, owed, b);
        else if ((v = g_solve(g, &rest, b, best - c, owed)) == -2)
            return -2;
        v += c;
        if (v < best) best = v, pick = -1;
    }
    e = table_put(memo, state, (int32_t)b);
    if (!e) return -2;
    e->val = best < budget ? best << 16 | (int64_t)(pick + 8) : -budget - 1;
    return best;
}

static void GSearch_dealloc(GSearch *g) {
    PyMem_Free(g->end[0]);
    PyMem_Free(g->end[1]);
    PyMem_Free(g->moves);
    PyMem_Free(g->term);
    table_free(&g->memo[0]);
    table_free(&g->memo[1]);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

static int64_t *int_array(PyObject *seq, Py_ssize_t *n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return NULL;
    *n = PySequence_Fast_GET_SIZE(fast);
    int64_t *out = PyMem_Malloc(sizeof(int64_t) * (*n ? *n : 1));
    if (!out) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            PyMem_Free(out);
            return NULL;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    return out;
}

/* A tuple of Python ints from n C ints. */
static PyObject *int_tuple(const int *buf, int n) {
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(buf[i]);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, x);
    }
    return out;
}

/* GSearch(fields, cands, guard, n_any, ends_owed, ends_plain, scoped) -- scoped: None, or (shift, gbits, mask_g, mask_q, n_set, n_run, term)
 * with term the leftover costs flattened as [owed][b][g][q]. */
static PyObject *GSearch_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    int n_any;
    PyObject *fields, *cands, *guard, *ends0, *ends1, *scoped;
    if (!PyArg_ParseTuple(args, "O!OOiOOO", &FieldsType, &fields, &cands, &guard, &n_any,
                          &ends0, &ends1, &scoped))
        return NULL;
    GSearch *g = (GSearch *)type->tp_alloc(type, 0);
    if (!g) return NULL;
    g->s = ((Fields *)fields)->s;
    g->sp = &g->s;
    if (st_from(guard, &g->guard) < 0) goto fail;
    g->n_any = n_any;
    Py_ssize_t n;
    if (!(g->end[1] = int_array(ends0, &n, "ends"))) goto fail;
    if (n != n_any + 1) goto bad;
    if (!(g->end[0] = int_array(ends1, &n, "ends"))) goto fail;
    if (n != n_any + 1) goto bad;
    PyObject *fast = PySequence_Fast(cands, "cands");
    if (!fast) goto fail;
    if (PySequence_Fast_GET_SIZE(fast) != NREG) {
        Py_DECREF(fast);
        goto bad;
    }
    Py_ssize_t total = 0;
    for (int j = 0; j < NREG; j++) {
        PyObject *mv = PySequence_Fast_GET_ITEM(fast, j);
        Py_ssize_t k = PyObject_Length(mv);
        if (k < 0) {
            Py_DECREF(fast);
            goto fail;
        }
        total += k;
    }
    g->moves = PyMem_Malloc(sizeof(gmove_t) * (total ? total : 1));
    if (!g->moves) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        goto fail;
    }
    Py_ssize_t at = 0;
    for (int j = 0; j < NREG; j++) {
        g->start[j] = (int)at;
        PyObject *mv = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, j), "moves");
        if (!mv) {
            Py_DECREF(fast);
            goto fail;
        }
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(mv); i++) {
            PyObject *pair = PySequence_Fast_GET_ITEM(mv, i);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                Py_DECREF(mv);
                Py_DECREF(fast);
                goto bad;
            }
            if (st_from(PyTuple_GET_ITEM(pair, 0), &g->moves[at].delta) < 0) {
                Py_DECREF(mv);
                Py_DECREF(fast);
                goto fail;
            }
            g->moves[at].k = PyLong_AsLongLong(PyTuple_GET_ITEM(pair, 1));
            if (g->moves[at].k == -1 && PyErr_Occurred()) {
                Py_DECREF(mv);
                Py_DECREF(fast);
                goto fail;
            }
            at++;
        }
        Py_DECREF(mv);
    }
    g->start[NREG] = (int)at;
    Py_DECREF(fast);
    if (scoped != Py_None) {
        PyObject *term;
        unsigned long long mg, mq;
        if (!PyArg_ParseTuple(scoped, "iiKKiiO", &g->shift, &g->gbits, &mg, &mq, &g->n_set,
                              &g->n_run, &term))
            goto fail;
        g->mask_g = mg;
        g->mask_q = mq;
        g->scoped = 1;
        if (!(g->term = int_array(term, &n, "term"))) goto fail;
        if (n != 2 * (Py_ssize_t)(n_any + 1) * (g->n_set + 1) * (g->n_run + 1)) goto bad;
        if (g->shift + 32 > NW * 64) goto bad;
    }
    return (PyObject *)g;
bad:
    PyErr_SetString(PyExc_ValueError, "GSearch: inconsistent tables");
fail:
    Py_DECREF(g);
    return NULL;
}

/* value(state, b, d, budget=INF): as _Solver.value (d = 0 while a discard is owed). */
static PyObject *GSearch_value(GSearch *g, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 3 || nargs > 4) {
        PyErr_SetString(PyExc_TypeError, "value(state, b, d, budget=INF)");
        return NULL;
    }
    st_t state;
    if (st_from(args[0], &state) < 0) return NULL;
    long long b = PyLong_AsLongLong(args[1]);
    long long d = PyLong_AsLongLong(args[2]);
    long long budget = nargs == 4 ? PyLong_AsLongLong(args[3]) : INF;
    if (PyErr_Occurred()) return NULL;
    if (budget > INF) budget = INF; /* the same answers: no value above INF is exact */
    int64_t v = g_solve(g, &state, b, budget, d ? 0 : 1);
    if (v == -2) return NULL;
    return PyLong_FromLongLong(v);
}

/* solve(state, b, budget=INF): value with no discard owed. */
static PyObject *GSearch_solve(GSearch *g, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 2 || nargs > 3) {
        PyErr_SetString(PyExc_TypeError, "solve(state, b, budget=INF)");
        return NULL;
    }
    st_t state;
    if (st_from(args[0], &state) < 0) return NULL;
    long long b = PyLong_AsLongLong(args[1]);
    long long budget = nargs == 3 ? PyLong_AsLongLong(args[2]) : INF;
    if (PyErr_Occurred()) return NULL;
    if (budget > INF) budget = INF;
    int64_t v = g_solve(g, &state, b, budget, 0);
    if (v == -2) return NULL;
    return PyLong_FromLongLong(v);
}

/* entry(state, b, d): the memo's note on a state (as _Solver's memo dicts), or None. */
static PyObject *GSearch_entry(GSearch *g, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "entry(state, b, d)");
        return NULL;
    }
    st_t state;
    if (st_from(args[0], &state) < 0) return NULL;
    long long b = PyLong_AsLongLong(args[1]);
    long long d = PyLong_AsLongLong(args[2]);
    if (PyErr_Occurred()) return NULL;
    entry_t *e = table_find(&g->memo[d ? 0 : 1], &state, (int32_t)b);
    if (!e) Py_RETURN_NONE;
    return PyLong_FromLongLong(e->val);
}

#define PICKS_MOST (4 * NREG + 8)

/* The walk of GSearch.picks into buf (at most PICKS_MOST); its length, or -1 with an
 * exception set. */
static int g_picks(GSearch *g, const st_t *start, int64_t b, int owed, int *buf) {
    const shape_t *s = g->sp;
    st_t state = *start;
    int n = 0;
    while (!st_zero(&state) && n < PICKS_MOST) {
        int j = slot_of(s, &state);
        if (j == NREG) break; /* only scoped wild cards left */
        entry_t *e = table_find(&g->memo[owed], &state, (int32_t)b);
        int pick = e ? (int)((e->val & 0xFFFF) - 8) : -1;
        if (pick >= 0) {
            if (pick >= g->start[j + 1] - g->start[j]) {
                PyErr_SetString(PyExc_RuntimeError, "picks: a note names no candidate");
                return -1;
            }
            const gmove_t *mv = &g->moves[g->start[j] + pick];
            st_sub(&state, &state, &mv->delta);
            b -= mv->k;
        } else {
            st_sub(&state, &state, &s->unit[j]);
            if (pick == -3)
                b += 1;
            else if (pick != -1)
                owed = 0;
        }
        buf[n++] = pick;
    }
    return n;
}

/* picks(state, b, d): the first best move from each state along one best layout, as
 * _Solver.picks reads them from its memo (the walk; d = 0 while a discard is owed):
 * a candidate's index at its card, -1 deadwood, -2 discard, -3 played as wild. */
static PyObject *GSearch_picks(GSearch *g, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "picks(state, b, d)");
        return NULL;
    }
    st_t state;
    if (st_from(args[0], &state) < 0) return NULL;
    long long b = PyLong_AsLongLong(args[1]);
    long long d = PyLong_AsLongLong(args[2]);
    if (PyErr_Occurred()) return NULL;
    int buf[PICKS_MOST];
    int n = g_picks(g, &state, b, d ? 0 : 1, buf);
    if (n < 0) return NULL;
    return int_tuple(buf, n);
}

/* release(): forget the memo (the answers read from it are kept by the caller). */
static PyObject *GSearch_release(GSearch *g, PyObject *unused) {
    table_free(&g->memo[0]);
    table_free(&g->memo[1]);
    Py_RETURN_NONE;
}

static PyMethodDef GSearch_methods[] = {
    {"value", (PyCFunction)(void (*)(void))GSearch_value, METH_FASTCALL,
     "value(state, b, d, budget=INF): the fewest points from a state."},
    {"solve", (PyCFunction)(void (*)(void))GSearch_solve, METH_FASTCALL,
     "solve(state, b, budget=INF): the same with no discard owed."},
    {"entry", (PyCFunction)(void (*)(void))GSearch_entry, METH_FASTCALL,
     "entry(state, b, d): the memo's note on a state, or None."},
    {"picks", (PyCFunction)(void (*)(void))GSearch_picks, METH_FASTCALL,
     "picks(state, b, d): the first best moves of one best layout, in order."},
    {"release", (PyCFunction)GSearch_release, METH_NOARGS, "Forget the memo."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GSearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "payme.solver._core.GSearch",
    .tp_basicsize = sizeof(GSearch),
    .tp_dealloc = (destructor)GSearch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The general search of one hand (payme.solver.search._Solver, compiled).",
    .tp_methods = GSearch_methods,
    .tp_new = GSearch_new,
};

/* ---------------------------------------------------------------------------------------
 * Hands: one rule set and round's whole evaluation of a hand in one call, as
 * payme.solver.evaluate makes it on its general path -- the pass over the cards
 * (search.scan), the candidate melds looked up by shape (Search._candidates), the cards
 * set aside (Search._set_aside), the search and its picks -- for the hands it takes: any
 * but those with scoped wild cards (GROUP, SEQ) or a card the pack lacks (the Python path
 * then names it).  The candidate bundles are made here as the shape book makes them (see
 * make_runs below) and kept by the same keys. */

typedef struct {
    int n_groups;
    int *anchor, *count; /* per group */
    gmove_t *moves;      /* every group's moves, one after the other */
    st_t used;
} cbundle_t;

/* The meld rules the candidates follow (ShapeBook's fields and RuleTables'). */
typedef struct {
    int set_most, run_most, cap, run_min, half, adjacent, ace_high, all_wild_run_ok, distinct,
        set_min;
} mrules_t;

typedef struct {
    uint64_t key; /* 0: empty */
    cbundle_t *b;
} bslot_t;

typedef struct {
    PyObject_HEAD
    shape_t s;
    st_t guard;
    int pos_of[NREG], index_at[NREG];
    unsigned char limit[64];
    signed char kind[64]; /* by card index: 0 regular, 1 one-card meld, 2 never melded,
                             3 wild in any meld, 4 other (scoped wild: not handled) */
    int64_t card_cost[64];
    int n_cards, max_hand, half_limit, ace_high, set_min;
    int plan_gap[64], plan_need[64], plan_cap[64]; /* gap -1: none (suit_bundles) */
    mrules_t t;
    PyObject *card_type, *index_name, *ends_for, *ends_cache;
    PyObject *card_of[64]; /* the shared Card object of each index */
    PyObject *ptr_key[256]; /* the same by address (open addressing), for Hands.evaluate */
    int ptr_idx[256];
    uint64_t spelled[1024]; /* a token's bytes (up to 8) -> its index + 1 in spelled_as */
    int spelled_as[1024];
    PyObject *ev_type, *ev_rules, *ev_dealt, *ev_later, *ev_tables; /* see Hands.bind */
    PyObject *ev_discard_later, *ev_indexes;
    PyObject *name_points, *name_rules, *name_dealt, *name_pending, *name_cards, *name_deadwood;
    PyObject *bd_type, *name_card, *name_evaluation; /* best(): see Hands.bind */
    /* The dicts new instances copy (see new_instance): an evaluation's with its cards and
     * deadwood, one's without (laid out when read), a best discard's. */
    PyObject *ev_full, *ev_lazy, *bd_fields;
    /* The memos of a hand's search, kept from hand to hand (cleared by moving to the next
     * generation, not freed): lent to one search at a time (``busy``: lent). */
    table_t scratch[2];
    int busy;
    int last_n; /* the ends of the last costs asked (most hands: no wild card, n = 0) */
    int64_t last_costs[64], last_e0[66], last_e1[66], last_f0[66], last_f1[66];
    char barred[64]; /* by card index: may not be the card left over (see Hands.going_out) */
    int allow_none;  /* going out without a discard is allowed */
    bslot_t *slots;
    size_t cap, n;
} Hands;

static inline size_t ptr_hash(const void *p) {
    return (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ULL >> 56);
}

static void cbundle_free(cbundle_t *b) {
    if (!b) return;
    PyMem_Free(b->anchor);
    PyMem_Free(b->count);
    PyMem_Free(b->moves);
    PyMem_Free(b);
}

static void hands_clear_cache(Hands *h) {
    for (size_t i = 0; i < h->cap; i++) cbundle_free(h->slots[i].b);
    PyMem_Free(h->slots);
    h->slots = NULL;
    h->cap = h->n = 0;
}

static inline uint64_t key_hash(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
}

static cbundle_t *hands_find(Hands *h, uint64_t key) {
    if (!h->cap) return NULL;
    size_t m = h->cap - 1, i = key_hash(key) & m;
    for (;;) {
        bslot_t *e = &h->slots[i];
        if (!e->key) return NULL;
        if (e->key == key) return e->b;
        i = (i + 1) & m;
    }
}

static int hands_put(Hands *h, uint64_t key, cbundle_t *b) {
    if (2 * (h->n + 1) > h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 256;
        bslot_t *slots = PyMem_Calloc(cap, sizeof(bslot_t));
        if (!slots) {
            PyErr_NoMemory();
            return -1;
        }
        for (size_t j = 0; j < h->cap; j++) {
            if (!h->slots[j].key) continue;
            size_t i = key_hash(h->slots[j].key) & (cap - 1);
            while (slots[i].key) i = (i + 1) & (cap - 1);
            slots[i] = h->slots[j];
        }
        PyMem_Free(h->slots);
        h->slots = slots;
        h->cap = cap;
    }
    size_t m = h->cap - 1, i = key_hash(key) & m;
    while (h->slots[i].key) i = (i + 1) & m;
    h->slots[i].key = key;
    h->slots[i].b = b;
    h->n++;
    return 0;
}

/* The candidate melds by shape, made here as payme.solver.shapes.ShapeBook makes them
 * (the same candidates in the same order: ShapeBook._make_runs, _part_bundle,
 * suit_bundles, set_bundle and _bundle, step by step), so that a hand new to the process
 * costs no Python.  Only the moves are made (cards taken, wild cards): the melds' templates
 * are the Python book's business, for the layout. */

#define ACE_HIGH 14
#define RUN_MOST 13
#define MOST_ITEMS 16384

typedef struct {
    int anchor, size;
    int64_t k;
    st_t delta;
} item_t;

static inline void st_add(st_t *r, const st_t *a) {
    uint64_t carry = 0;
    for (int i = 0; i < NW; i++) {
        uint64_t x = r->w[i], s = x + a->w[i] + carry;
        carry = (s < x) || (carry && s == x);
        r->w[i] = s;
    }
}

/* shapes._splittable */
static int splittable(const char *natural, int n, int least, int half, int all_wild_ok) {
    int wild_before[32];
    wild_before[0] = 0;
    for (int i = 0; i < n; i++) wild_before[i + 1] = wild_before[i] + !natural[i];
    int total = wild_before[n];
    for (int cut = least; cut <= n - least; cut++) {
        int left = wild_before[cut], right = total - left;
        if (half && (2 * left > cut || 2 * right > n - cut)) continue;
        if (!all_wild_ok && (left == cut || right == n - cut)) continue;
        return 1;
    }
    return 0;
}

typedef struct {
    int rank_mask; /* bit r: rank r (an ace above the king counted as rank 1) */
    int n_ranks, lowest;
    int64_t k;
} rshape_t;

/* ShapeBook._make_runs(mask, wcap): the run shapes of a cluster, in its order.  The count
 * made, or -1 when more than ``most_out`` (an exception set). */
static int make_runs(const mrules_t *t, uint64_t mask, int wcap, rshape_t *out, int most_out) {
    char held[ACE_HIGH + 2];
    memset(held, 0, sizeof(held));
    for (int r = 1; r <= 13; r++)
        if (mask >> r & 1) held[r] = 1;
    if (t->ace_high && held[1]) held[ACE_HIGH] = 1;
    int n_avail = __builtin_popcountll(mask);
    int most = t->run_most < n_avail + wcap ? t->run_most : n_avail + wcap;
    if (t->half && most > 2 * n_avail) most = 2 * n_avail;
    int n_out = 0;
    for (int length = t->run_min; length <= most; length++) {
        int limit = t->half ? (wcap < length / 2 ? wcap : length / 2) : wcap;
        int lows[ACE_HIGH + 2], n_lows = 0;
        /* Highest window first: the ace-high window, then RUN_MOST - length + 1 down to 1. */
        if (t->ace_high && ACE_HIGH - length + 1 >= 2) lows[n_lows++] = ACE_HIGH - length + 1;
        for (int low = RUN_MOST - length + 1; low >= 1; low--) lows[n_lows++] = low;
        for (int li = 0; li < n_lows; li++) {
            int low = lows[li], high = low + length - 1;
            int avail[ACE_HIGH + 2], n_av = 0;
            for (int p = low; p <= high; p++)
                if (held[p]) avail[n_av++] = p;
            int forced = length - n_av;
            if (forced > limit || !n_av) continue;
            int top = limit - forced < n_av - 1 ? limit - forced : n_av - 1;
            for (int extra = 0; extra <= top; extra++) {
                /* combinations(avail, extra), in lexicographic order */
                int idx[ACE_HIGH + 2];
                for (int i = 0; i < extra; i++) idx[i] = i;
                for (;;) {
                    char nat[ACE_HIGH + 2];
                    memset(nat, 0, sizeof(nat));
                    for (int i = 0; i < n_av; i++) nat[avail[i]] = 1;
                    for (int i = 0; i < extra; i++) nat[avail[idx[i]]] = 0;
                    int ok = 1;
                    if (t->adjacent)
                        for (int p = low; p < high; p++)
                            if (!nat[p] && !nat[p + 1]) {
                                ok = 0;
                                break;
                            }
                    if (ok && length >= 2 * t->run_min &&
                        splittable(nat + low, length, t->run_min, t->half, t->all_wild_run_ok))
                        ok = 0;
                    if (ok) {
                        if (n_out == most_out) {
                            PyErr_SetString(PyExc_OverflowError, "too many run shapes");
                            return -1;
                        }
                        rshape_t *o = &out[n_out++];
                        o->rank_mask = 0;
                        o->n_ranks = 0;
                        o->lowest = 99;
                        for (int p = low; p <= high; p++) {
                            if (!nat[p]) continue;
                            int r = p == ACE_HIGH ? 1 : p;
                            o->rank_mask |= 1 << r;
                            o->n_ranks++;
                            if (r < o->lowest) o->lowest = r;
                        }
                        o->k = forced + extra;
                    }
                    /* the next combination */
                    int i = extra - 1;
                    while (i >= 0 && idx[i] == i + n_av - extra) i--;
                    if (i < 0) break;
                    idx[i]++;
                    for (int q = i + 1; q < extra; q++) idx[q] = idx[q - 1] + 1;
                }
            }
        }
    }
    return n_out;
}

/* shapes._bundle: bigger melds first, then fewer wild cards (a stable sort); each item
 * kept as a group of its own (the hand's assembly puts each anchor's moves in order). */
static cbundle_t *bundle_items(item_t *items, int n) {
    for (int i = 1; i < n; i++) {
        item_t x = items[i];
        int q = i;
        while (q > 0 && (items[q - 1].size < x.size ||
                         (items[q - 1].size == x.size && items[q - 1].k > x.k))) {
            items[q] = items[q - 1];
            q--;
        }
        items[q] = x;
    }
    cbundle_t *b = PyMem_Calloc(1, sizeof(cbundle_t));
    if (!b) return (cbundle_t *)PyErr_NoMemory();
    b->n_groups = n;
    b->anchor = PyMem_Malloc(sizeof(int) * (n ? n : 1));
    b->count = PyMem_Malloc(sizeof(int) * (n ? n : 1));
    b->moves = PyMem_Malloc(sizeof(gmove_t) * (n ? n : 1));
    if (!b->anchor || !b->count || !b->moves) {
        cbundle_free(b);
        return (cbundle_t *)PyErr_NoMemory();
    }
    for (int i = 0; i < n; i++) {
        b->anchor[i] = items[i].anchor;
        b->count[i] = 1;
        b->moves[i].delta = items[i].delta;
        b->moves[i].k = items[i].k;
        for (int w = 0; w < NW; w++) b->used.w[w] |= items[i].delta.w[w];
    }
    return b;
}

/* ShapeBook._part_bundle(suit, part, cap, single=False), appended to items. */
static int part_items(const mrules_t *t, const int *pos_of, const shape_t *s, int suit,
                      uint64_t part, int cap, item_t *items, int n) {
    static rshape_t shapes[MOST_ITEMS];
    int n_sh = make_runs(t, part, cap, shapes, MOST_ITEMS);
    if (n_sh < 0) return -1;
    int first = n;
    for (int i = 0; i < n_sh; i++) {
        const rshape_t *sh = &shapes[i];
        if (sh->n_ranks == 1 && 1 + sh->k <= t->set_most) continue; /* the same as a set */
        int dup = 0;
        for (int q = first; q < n && !dup; q++)
            dup = items[q].k == sh->k && items[q].size == -sh->rank_mask - 1;
        if (dup) continue;
        if (n == MOST_ITEMS) {
            PyErr_SetString(PyExc_OverflowError, "too many candidate runs");
            return -1;
        }
        item_t *it = &items[n++];
        memset(&it->delta, 0, sizeof(st_t));
        for (int r = 1; r <= 13; r++)
            if (sh->rank_mask >> r & 1) st_add(&it->delta, &s->unit[pos_of[suit * 13 + r - 1]]);
        it->anchor = pos_of[suit * 13 + sh->lowest - 1];
        it->k = sh->k;
        it->size = -sh->rank_mask - 1; /* the ranks, for the duplicate test; size below */
    }
    for (int q = first; q < n; q++) items[q].size = __builtin_popcount(-items[q].size - 1);
    return n;
}

static inline int run_wild_cap(const mrules_t *t, uint64_t mask, int wilds) {
    int most = t->half ? __builtin_popcountll(mask) : (t->cap ? t->cap : RUN_MOST) - 1;
    return wilds < most ? wilds : most;
}

/* ShapeBook.part_bundle */
static cbundle_t *make_part_bundle(const mrules_t *t, const int *pos_of, const shape_t *s,
                                   int suit, uint64_t part, int cap) {
    static item_t items[MOST_ITEMS];
    int n = part_items(t, pos_of, s, suit, part, cap, items, 0);
    return n < 0 ? NULL : bundle_items(items, n);
}

/* ShapeBook.set_bundle */
static cbundle_t *make_set_bundle(const mrules_t *t, const int *pos_of, const shape_t *s,
                                  int rank, const int *copies_in, int wilds) {
    static item_t items[MOST_ITEMS];
    int most = t->set_most, copies[4];
    for (int su = 0; su < 4; su++) {
        int c = copies_in[su];
        copies[su] = t->distinct ? (c < 1 ? c : 1) : (c < most ? c : most);
    }
    int wcap = wilds < most - 1 ? wilds : most - 1;
    if (t->half && wcap > most / 2) wcap = most / 2;
    int n = 0;
    int m[4];
    for (m[0] = 0; m[0] <= copies[0]; m[0]++)
        for (m[1] = 0; m[1] <= copies[1]; m[1]++)
            for (m[2] = 0; m[2] <= copies[2]; m[2]++)
                for (m[3] = 0; m[3] <= copies[3]; m[3]++) {
                    int nn = m[0] + m[1] + m[2] + m[3];
                    if (nn == 0 || nn > most) continue;
                    int anchor = 0;
                    while (!m[anchor]) anchor++;
                    int lo_k = t->set_min - nn > 0 ? t->set_min - nn : 0;
                    int hi_k = wcap < most - nn ? wcap : most - nn;
                    if (t->half && hi_k > nn) hi_k = nn;
                    for (int k = lo_k; k <= hi_k; k++) {
                        if (n == MOST_ITEMS) {
                            PyErr_SetString(PyExc_OverflowError, "too many candidate sets");
                            return NULL;
                        }
                        item_t *it = &items[n++];
                        memset(&it->delta, 0, sizeof(st_t));
                        for (int su = 0; su < 4; su++)
                            for (int c = 0; c < m[su]; c++)
                                st_add(&it->delta, &s->unit[pos_of[su * 13 + rank - 1]]);
                        it->anchor = pos_of[anchor * 13 + rank - 1];
                        it->k = k;
                        it->size = nn;
                    }
                }
    return bundle_items(items, n);
}

/* ShapeBook.suit_bundles: the bundles of a suit's clusters (those with a candidate) as
 * one. */
static cbundle_t *make_suit_bundle(const mrules_t *t, const int *pos_of, const shape_t *s,
                                   int suit, uint64_t mask, int wilds) {
    static item_t items[MOST_ITEMS];
    int wcap = run_wild_cap(t, mask, wilds);
    uint64_t parts[16];
    int n_parts = 0;
    if (t->ace_high && mask & 2) {
        parts[n_parts++] = mask;
    } else {
        int gap = t->adjacent ? 2 : (wcap < (t->cap ? t->cap : RUN_MOST) - 2 ? wcap : (t->cap ? t->cap : RUN_MOST) - 2) + 1;
        if (gap < 1) {
            for (int r = 1; r < 14; r++)
                if (mask >> r & 1) parts[n_parts++] = (uint64_t)1 << r;
        } else {
            uint64_t reach = mask;
            for (int k = 1; k < gap; k++) reach |= mask << k;
            while (reach) {
                uint64_t row = reach & ~(reach + (reach & (~reach + 1)));
                reach ^= row;
                parts[n_parts++] = row & mask;
            }
        }
    }
    /* The clusters' items one after another, sorted as one bundle: each anchor's items
     * come from one cluster, and the stable sort keeps their order within it. */
    int n = 0;
    for (int i = 0; i < n_parts; i++) {
        n = part_items(t, pos_of, s, suit, parts[i], run_wild_cap(t, parts[i], wcap), items, n);
        if (n < 0) return NULL;
    }
    return bundle_items(items, n);
}

static void Hands_dealloc(Hands *h) {
    hands_clear_cache(h);
    for (int i = 0; i < 64; i++) Py_XDECREF(h->card_of[i]);
    Py_XDECREF(h->ev_type);
    Py_XDECREF(h->ev_rules);
    Py_XDECREF(h->ev_dealt);
    Py_XDECREF(h->ev_later);
    Py_XDECREF(h->ev_discard_later);
    Py_XDECREF(h->ev_indexes);
    Py_XDECREF(h->ev_tables);
    Py_XDECREF(h->name_points);
    Py_XDECREF(h->name_rules);
    Py_XDECREF(h->name_dealt);
    Py_XDECREF(h->name_pending);
    Py_XDECREF(h->name_cards);
    Py_XDECREF(h->name_deadwood);
    Py_XDECREF(h->bd_type);
    Py_XDECREF(h->ev_full);
    Py_XDECREF(h->ev_lazy);
    Py_XDECREF(h->bd_fields);
    Py_XDECREF(h->name_card);
    Py_XDECREF(h->name_evaluation);
    table_free(&h->scratch[0]);
    table_free(&h->scratch[1]);
    Py_XDECREF(h->card_type);
    Py_XDECREF(h->index_name);
    Py_XDECREF(h->ends_for);
    Py_XDECREF(h->ends_cache);
    Py_TYPE(h)->tp_free((PyObject *)h);
}

/* Hands(fields, guard, card_type, pos_of, limit, kind, card_cost, max_hand, plans,
 *       ends_for, cards, spellings, (set_most, run_most, cap, run_min, half_limit, adjacent_limit, ace_high,
 *       all_wild_run_ok, distinct_suits, set_min))
 * plans: 64 (gap or None, need, cap); ends_for(costs) -> (ends with a discard owed,
 * ends without), for the any-scope wild cards' costs (dearest first); cards: the Card of
 * each index; spellings: token -> Card, every spelling a text hand may use (those of up
 * to 8 ASCII characters are read here, any other token is left to Python). */
static PyObject *Hands_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    PyObject *fields, *guard, *card_type, *pos_of, *limit, *kind, *card_cost, *plans, *ends_for;
    PyObject *cards, *spellings;
    int max_hand;
    mrules_t t;
    if (!PyArg_ParseTuple(args, "O!OOOOOOiOOO!O!(iiiiiiiiii)", &FieldsType, &fields, &guard,
                          &card_type, &pos_of, &limit, &kind, &card_cost, &max_hand, &plans,
                          &ends_for, &PyTuple_Type, &cards, &PyDict_Type, &spellings,
                          &t.set_most, &t.run_most, &t.cap, &t.run_min, &t.half,
                          &t.adjacent, &t.ace_high, &t.all_wild_run_ok, &t.distinct,
                          &t.set_min))
        return NULL;
    if (t.run_min < 1 || t.run_most > RUN_MOST || t.set_most < 1 || t.set_min < 1) {
        PyErr_SetString(PyExc_ValueError, "Hands: meld rules out of range");
        return NULL;
    }
    Hands *h = (Hands *)type->tp_alloc(type, 0);
    if (!h) return NULL;
    h->s = ((Fields *)fields)->s;
    h->t = t;
    h->max_hand = max_hand;
    h->half_limit = t.half;
    h->ace_high = t.ace_high;
    h->set_min = t.set_min;
    if (st_from(guard, &h->guard) < 0) goto fail;
    int64_t tmp[64];
    if (int_list(pos_of, tmp, NREG, "pos_of") < 0) goto fail;
    for (int i = 0; i < NREG; i++) {
        if (tmp[i] < 0 || tmp[i] >= NREG) goto bad;
        h->pos_of[i] = (int)tmp[i];
        h->index_at[tmp[i]] = i;
    }
    Py_ssize_t n = PyObject_Length(limit);
    if (n < NREG || n > 64) goto bad;
    h->n_cards = (int)n;
    if (int_list(limit, tmp, n, "limit") < 0) goto fail;
    for (int i = 0; i < n; i++) h->limit[i] = (unsigned char)(tmp[i] > 255 ? 255 : tmp[i]);
    if (int_list(kind, tmp, n, "kind") < 0) goto fail;
    for (int i = 0; i < n; i++) h->kind[i] = (signed char)tmp[i];
    if (int_list(card_cost, h->card_cost, n, "card_cost") < 0) goto fail;
    PyObject *fast = PySequence_Fast(plans, "plans");
    if (!fast) goto fail;
    if (PySequence_Fast_GET_SIZE(fast) != 64) {
        Py_DECREF(fast);
        goto bad;
    }
    for (int w = 0; w < 64; w++) {
        PyObject *gap, *need, *cap;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, w), "OOO", &gap, &need, &cap)) {
            Py_DECREF(fast);
            goto fail;
        }
        h->plan_gap[w] = gap == Py_None ? -1 : (int)PyLong_AsLong(gap);
        h->plan_need[w] = (int)PyLong_AsLong(need);
        h->plan_cap[w] = (int)PyLong_AsLong(cap);
    }
    Py_DECREF(fast);
    if (PyErr_Occurred()) goto fail;
    Py_INCREF(card_type);
    h->card_type = card_type;
    Py_INCREF(ends_for);
    h->ends_for = ends_for;
    h->index_name = PyUnicode_InternFromString("index");
    h->ends_cache = PyDict_New();
    if (!h->index_name || !h->ends_cache) goto fail;
    h->last_n = -1;
    h->name_points = PyUnicode_InternFromString("deadwood_points");
    h->name_rules = PyUnicode_InternFromString("rules");
    h->name_dealt = PyUnicode_InternFromString("dealt");
    h->name_pending = PyUnicode_InternFromString("_pending");
    h->name_cards = PyUnicode_InternFromString("cards");
    h->name_deadwood = PyUnicode_InternFromString("deadwood");
    h->name_card = PyUnicode_InternFromString("card");
    h->name_evaluation = PyUnicode_InternFromString("evaluation");
    if (!h->name_points || !h->name_rules || !h->name_dealt || !h->name_pending ||
        !h->name_cards || !h->name_deadwood || !h->name_card || !h->name_evaluation)
        goto fail;
    h->allow_none = 1;
    if (PyTuple_GET_SIZE(cards) != n) goto bad;
    for (int i = 0; i < n; i++) {
        PyObject *c = h->card_of[i] = PyTuple_GET_ITEM(cards, i);
        Py_INCREF(c);
        size_t slot = ptr_hash(c);
        while (h->ptr_key[slot]) slot = (slot + 1) & 255;
        h->ptr_key[slot] = c;
        h->ptr_idx[slot] = i;
    }
    int n_spelled = 0;
    Py_ssize_t pos = 0;
    PyObject *key, *val;
    while (PyDict_Next(spellings, &pos, &key, &val)) {
        Py_ssize_t len;
        const char *text = PyUnicode_Check(key) ? PyUnicode_AsUTF8AndSize(key, &len) : NULL;
        if (!text) {
            PyErr_Clear();
            continue;
        }
        uint64_t word = 0;
        int ok = len >= 1 && len <= 8;
        for (Py_ssize_t i = 0; ok && i < len; i++) {
            unsigned char ch = (unsigned char)text[i];
            ok = ch > 32 && ch < 127 && ch != ',';
            word |= (uint64_t)ch << (8 * i);
        }
        int idx = -1;
        for (int i = 0; ok && i < n; i++)
            if (h->card_of[i] == val) idx = i;
        if (!ok || idx < 0) continue;
        size_t slot = key_hash(word) & 1023;
        while (h->spelled[slot] && h->spelled[slot] != word) slot = (slot + 1) & 1023;
        if (!h->spelled[slot] && ++n_spelled > 512) continue; /* full: Python parses it */
        h->spelled[slot] = word;
        h->spelled_as[slot] = idx;
    }
    return (PyObject *)h;
bad:
    PyErr_SetString(PyExc_ValueError, "Hands: inconsistent tables");
fail:
    Py_DECREF(h);
    return NULL;
}

#define TAG_SUIT ((uint64_t)1 << 50)
#define TAG_PART ((uint64_t)1 << 51)
#define TAG_SET ((uint64_t)1 << 52)
#define MOST_BUNDLES 64

/* The leftover costs of n any-scope wild cards with these costs (dearest first): into
 * ends[owed][b], b = 0..n; and what becomes of the b left (fate: the number melded in
 * all-wild melds times 2, plus 1 when one of the rest is the discard), as the leftover
 * table's layout says.  -1 with an exception set. */
static int hands_ends(Hands *h, const int64_t *costs, int n, int64_t *ends0, int64_t *ends1,
                      int64_t *fate0, int64_t *fate1) {
    if (n == h->last_n && !memcmp(costs, h->last_costs, sizeof(int64_t) * n)) {
        memcpy(ends0, h->last_e0, sizeof(int64_t) * (n + 1));
        memcpy(ends1, h->last_e1, sizeof(int64_t) * (n + 1));
        memcpy(fate0, h->last_f0, sizeof(int64_t) * (n + 1));
        memcpy(fate1, h->last_f1, sizeof(int64_t) * (n + 1));
        return 0;
    }
    h->last_n = -1;
    PyObject *key = PyTuple_New(n);
    if (!key) return -1;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLongLong(costs[i]);
        if (!x) {
            Py_DECREF(key);
            return -1;
        }
        PyTuple_SET_ITEM(key, i, x);
    }
    PyObject *hit = PyDict_GetItemWithError(h->ends_cache, key);
    if (hit) {
        Py_INCREF(hit);
    } else {
        if (PyErr_Occurred() || PyDict_Size(h->ends_cache) > 1000) PyDict_Clear(h->ends_cache);
        PyErr_Clear();
        hit = PyObject_CallOneArg(h->ends_for, key);
        if (!hit || PyDict_SetItem(h->ends_cache, key, hit) < 0) {
            Py_XDECREF(hit);
            Py_DECREF(key);
            return -1;
        }
    }
    Py_DECREF(key);
    PyObject *e0, *e1, *f0, *f1;
    int ok = PyArg_ParseTuple(hit, "OOOO", &e0, &e1, &f0, &f1) &&
             int_list(e0, ends0, n + 1, "ends") == 0 && int_list(e1, ends1, n + 1, "ends") == 0 &&
             int_list(f0, fate0, n + 1, "fates") == 0 && int_list(f1, fate1, n + 1, "fates") == 0;
    Py_DECREF(hit);
    if (!ok) return -1;
    h->last_n = n;
    memcpy(h->last_costs, costs, sizeof(int64_t) * n);
    memcpy(h->last_e0, ends0, sizeof(int64_t) * (n + 1));
    memcpy(h->last_e1, ends1, sizeof(int64_t) * (n + 1));
    memcpy(h->last_f0, fate0, sizeof(int64_t) * (n + 1));
    memcpy(h->last_f1, fate1, sizeof(int64_t) * (n + 1));
    return 0;
}

/* A hand with more candidates than the buffers hold is left to the Python path (None);
 * any other error stands. */
#define SCRATCH_MOST 1024 /* entries (56 bytes each) a kept memo may hold */

static PyObject *too_many(void) {
    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
    PyErr_Clear();
    Py_RETURN_NONE;
}

/* What a hand's search needs to lay out its cards after the search (see hand_walk). */
typedef struct {
    Hands *h;
    GSearch *g;
    int n_any;
    int any_idx[64];               /* the any-scope wild cards: dearest first, then by index */
    int n_aside, aside_idx[64];    /* the cards never melded and those set aside (each copy) */
    int n_single, single_idx[64];  /* the one-card melds */
    int64_t *fate[2];              /* [owed][b]: see hands_ends */
    int n_cards;
    const int *index;              /* the hand's card indexes, in its order */
    PyObject *const *objs;         /* and its card objects (borrowed) */
    uint64_t present;              /* the card indexes the hand holds, as bits */
    const unsigned char *left;     /* by card index: the pack's copies less the hand's */
} hctx_t;

/* Replay a walk's picks from ``start`` (balance b, ``owed``: a discard still owed), as
 * search.replay and layout.layout do: each card left as deadwood counted in ``dead`` (by
 * card index), and so the pure wild cards left over that the leftover table leaves
 * unmelded (the cheapest; the dearest of those is the discard when one is still owed).
 * The index of the card discarded, or -1. */
static int hand_walk(const hctx_t *c, const st_t *start, int64_t b, int owed, const int *picks,
                     int n, int *dead) {
    const GSearch *g = c->g;
    const shape_t *s = g->sp;
    st_t state = *start;
    int thrown = -1;
    for (int i = 0; i < n; i++) {
        int j = slot_of(s, &state), pick = picks[i];
        if (pick >= 0) {
            const gmove_t *mv = &g->moves[g->start[j] + pick];
            st_sub(&state, &state, &mv->delta);
            b -= mv->k;
            continue;
        }
        st_sub(&state, &state, &s->unit[j]);
        if (pick == -1)
            dead[c->h->index_at[j]]++;
        else if (pick == -3)
            b += 1;
        else
            thrown = c->h->index_at[j], owed = 0;
    }
    if (0 <= b && b <= c->n_any) {
        int64_t fate = c->fate[owed][b];
        int from = c->n_any - (int)b + (int)(fate >> 1);
        if (fate & 1 && from < c->n_any) thrown = c->any_idx[from++];
        for (; from < c->n_any; from++) dead[c->any_idx[from]]++;
    }
    return thrown;
}

/* Whether picks given from outside replay from ``start`` within the search's moves (each
 * a move at its card that fits, or -1, -2, -3; no card left unmoved or moved twice): 0, or
 * -1 with an exception set. */
static int check_picks(const GSearch *g, const st_t *start, const int *picks, int n) {
    const shape_t *s = g->sp;
    st_t state = *start, sg;
    for (int i = 0; i < n; i++) {
        if (st_zero(&state) || picks[i] < -3) goto bad;
        int j = slot_of(s, &state);
        if (j == NREG) goto bad;
        if (picks[i] < 0) {
            st_sub(&state, &state, &s->unit[j]);
            continue;
        }
        if (picks[i] >= g->start[j + 1] - g->start[j]) goto bad;
        const gmove_t *mv = &g->moves[g->start[j] + picks[i]];
        for (int w = 0; w < NW; w++) sg.w[w] = state.w[w] | g->guard.w[w];
        if (!st_fits(&sg, &mv->delta, &g->guard)) goto bad;
        st_sub(&state, &state, &mv->delta);
    }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "card_indexes: picks that are not a walk of this hand");
    return -1;
}

/* The cards counted in ``dead`` (and those set aside) as card indexes, lowest first, into
 * ``out``: an evaluation's deadwood.  How many. */
static int dead_indexes(const hctx_t *c, int *dead, char *out) {
    for (int i = 0; i < c->n_aside; i++) dead[c->aside_idx[i]]++;
    int n = 0;
    /* Only the hand's cards are ever counted: their indexes, lowest first. */
    for (uint64_t m = c->present; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        for (int k = 0; k < dead[i] && n < 64; k++) out[n++] = (char)i;
    }
    return n;
}

/* The hand's card indexes but one of ``skip`` (-1: none), lowest first, into ``out``: an
 * evaluation's cards.  How many. */
static int kept_indexes(const hctx_t *c, int skip, char *out) {
    int n = 0;
    for (uint64_t m = c->present; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        int k = c->h->limit[i] - c->left[i] - (i == skip); /* the hand's copies */
        while (k-- > 0 && n < 64) out[n++] = (char)i;
    }
    return n;
}

/* The shared Card objects of n card indexes, as a tuple. */
static PyObject *cards_tuple(const Hands *h, const char *idx, int n) {
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *card = h->card_of[(int)idx[i]];
        Py_INCREF(card);
        PyTuple_SET_ITEM(out, i, card);
    }
    return out;
}

/* An instance of ``type`` made without its __init__, its dict a copy of ``template`` (every
 * key the instance holds, in order; the same each time) with ``n`` of its values replaced:
 * a dict copied whole is made at once, where one filled key by key grows its table. */
static PyObject *new_instance(PyObject *type, PyObject *template, int n, PyObject *const *names,
                              PyObject *const *values) {
    PyObject *d = PyDict_Copy(template);
    if (!d) return NULL;
    for (int i = 0; i < n; i++)
        if (PyDict_SetItem(d, names[i], values[i]) < 0) {
            Py_DECREF(d);
            return NULL;
        }
    PyTypeObject *tp = (PyTypeObject *)type;
    PyObject *out = tp->tp_alloc(tp, 0);
    if (out && PyObject_GenericSetDict(out, d, NULL) < 0) Py_CLEAR(out);
    Py_DECREF(d);
    return out;
}

/* An Evaluation as solver._lazy_evaluation makes it: its points, rules and round, and
 * what it lays out when read (``_pending``: the function that lays out the hand and its
 * arguments).  With ``cards`` (and ``dead``) its cards and deadwood are set at once (a best
 * discard's: its caller reads them); without, ``_pending`` adds Hands.bind's indexes, a
 * function of the same arguments that gives their card indexes, which Evaluation reads
 * without the layout.  Steals ``args``, ``cards`` and ``dead``. */
static PyObject *new_evaluation(Hands *h, int64_t points, PyObject *later, PyObject *args,
                                PyObject *cards, PyObject *dead) {
    PyObject *ev = NULL, *pts = NULL, *pending = NULL;
    if (!args || (cards ? !dead : 0)) goto done;
    pending = cards ? PyTuple_Pack(2, later, args) : PyTuple_Pack(3, later, args, h->ev_indexes);
    if (!pending || !(pts = PyLong_FromLongLong(points))) goto done;
    if (cards) {
        PyObject *names[4] = {h->name_cards, h->name_deadwood, h->name_points, h->name_pending};
        PyObject *values[4] = {cards, dead, pts, pending};
        ev = new_instance(h->ev_type, h->ev_full, 4, names, values);
    } else {
        PyObject *names[2] = {h->name_points, h->name_pending};
        PyObject *values[2] = {pts, pending};
        ev = new_instance(h->ev_type, h->ev_lazy, 2, names, values);
    }
done:
    Py_XDECREF(pts);
    Py_XDECREF(args);
    Py_XDECREF(cards);
    Py_XDECREF(dead);
    Py_XDECREF(pending);
    return ev;
}

/* The arguments of an evaluation's layout: (hand, tables, n) or (hand, tables, n, last),
 * made without Py_BuildValue's reading of a format (hot: one a call).  Steals ``last``. */
static PyObject *pack_args(PyObject *hand, PyObject *tables, int64_t n, PyObject *last) {
    PyObject *num = PyLong_FromLongLong(n), *out = NULL;
    if (num) out = PyTuple_New(last ? 4 : 3);
    if (out) {
        Py_INCREF(hand);
        Py_INCREF(tables);
        PyTuple_SET_ITEM(out, 0, hand);
        PyTuple_SET_ITEM(out, 1, tables);
        PyTuple_SET_ITEM(out, 2, num);
        if (last) PyTuple_SET_ITEM(out, 3, last);
        return out;
    }
    Py_XDECREF(num);
    Py_XDECREF(last);
    return NULL;
}

/* The Evaluation of a hand searched with no discard owed (``total``: the search's value,
 * ``points``: with the cards set aside), laid out by laid_out(hand, tables, total, picks)
 * when its melds are read. */
static PyObject *make_evaluation(const hctx_t *c, PyObject *hand, const st_t *state,
                                 int64_t points, int64_t total, const int *buf, int n,
                                 int at_once) {
    Hands *h = c->h;
    PyObject *picks = int_tuple(buf, n);
    if (!picks) return NULL;
    PyObject *args = pack_args(hand, h->ev_tables, total, picks);
    if (!at_once) return new_evaluation(h, points, h->ev_later, args, NULL, NULL);
    int dead[64] = {0};
    char kept[64], lost[64];
    hand_walk(c, state, c->n_any, 0, buf, n, dead);
    int n_kept = kept_indexes(c, -1, kept), n_lost = dead_indexes(c, dead, lost);
    return new_evaluation(h, points, h->ev_later, args, cards_tuple(h, kept, n_kept),
                          cards_tuple(h, lost, n_lost));
}

static PyObject *hands_run(Hands *h, const int *index, PyObject *const *objs, Py_ssize_t n_cards,
                           PyObject *hand, int mode, const int64_t *price, PyObject *picks);

/* A best discard's answer: (index of the card thrown, Evaluation of the cards kept), or
 * with ``as_object`` the BestDiscard itself (Hands.bind's class, made as
 * solver._new_evaluation makes an Evaluation: its fields set in its dict).  Steals ``ev``. */
static PyObject *discard_result(Hands *h, int thrown, PyObject *ev, int as_object) {
    if (!ev) return NULL;
    if (!as_object) return Py_BuildValue("(iN)", thrown, ev);
    PyObject *names[2] = {h->name_card, h->name_evaluation};
    PyObject *values[2] = {h->card_of[thrown], ev};
    PyObject *out = new_instance(h->bd_type, h->bd_fields, 2, names, values);
    Py_DECREF(ev);
    return out;
}

/* The best discard of a hand, as payme.solver.best_discard chooses it where no card is
 * barred from the discard: the least of (the search with one discard owed, 0, 0) and, for
 * each distinct card never melded, set aside (in no candidate meld) or melded alone, (the
 * plain search less what that card costs, 1, its index).  A hand of natural cards only
 * is laid out as natural_discard lays it out (the cards kept: the plain walk less the card
 * thrown), any other as best_discard's general path (the cards kept: evaluated afresh).
 * (index of the card thrown, Evaluation of the cards kept), or None when no card may go. */
static PyObject *discard_answer(const hctx_t *c, PyObject *hand, const st_t *state,
                                int64_t aside, int natural, int as_object) {
    Hands *h = c->h;
    GSearch *g = c->g;
    int64_t best = INF, kind = 2, thrown = -1, whole = INF;
    /* Each distinct card set aside or melded alone, lowest index first: the plain search
     * less that card. */
    uint64_t alone = 0;
    for (int i = 0; i < c->n_aside; i++) alone |= (uint64_t)1 << c->aside_idx[i];
    for (int i = 0; i < c->n_single; i++) alone |= (uint64_t)1 << c->single_idx[i];
    if (alone) {
        if ((whole = g_solve(g, state, c->n_any, INF, 0)) == -2) return NULL;
        whole += aside;
        for (uint64_t m = alone; m; m &= m - 1) {
            int x = __builtin_ctzll(m);
            int64_t saved = h->kind[x] == 1 ? 0 : h->card_cost[x];
            if (whole - saved < best) best = whole - saved, kind = 1, thrown = x;
        }
    }
    /* The search with the discard owed: it wins ties (best_discard's order), so it is
     * searched only below best - aside + 1 (a value that reaches that bound is not exact,
     * and loses; the walk of one below it reads only exact notes: see g_solve). */
    int64_t budget = best >= INF ? INF : best - aside + 1;
    if (budget > 0) {
        int64_t v = g_solve(g, state, c->n_any, budget, 1);
        if (v == -2) return NULL;
        if (v < budget && v < INF) best = v + aside, kind = 0, thrown = -1;
    }
    if (kind == 2) Py_RETURN_NONE;
    int dead[64] = {0};
    if (kind == 0) {
        /* The walk with the discard owed: its first best moves, the discard among them. */
        int buf[PICKS_MOST];
        int n = g_picks(g, state, c->n_any, 1, buf);
        if (n < 0) return NULL;
        thrown = hand_walk(c, state, c->n_any, 1, buf, n, dead);
        if (thrown < 0) {
            PyErr_SetString(PyExc_RuntimeError, "discard: the walk made no discard");
            return NULL;
        }
    } else if (natural) {
        /* The plain walk, less the card thrown (natural_discard). */
        int buf[PICKS_MOST];
        int n = st_zero(state) ? 0 : g_picks(g, state, 0, 0, buf);
        if (n < 0) return NULL;
        hand_walk(c, state, 0, 0, buf, n, dead);
        dead[thrown]--; /* set aside: counted by dead_indexes */
    } else {
        /* The cards kept, evaluated afresh (best_discard's general path). */
        int rest[64], n_rest = 0;
        PyObject *objs[64];
        int skip = (int)thrown;
        PyObject *kept = PyTuple_New(c->n_cards - 1);
        if (!kept) return NULL;
        for (int i = 0; i < c->n_cards; i++) {
            if (c->index[i] == skip) {
                skip = -2;
                continue;
            }
            rest[n_rest] = c->index[i];
            objs[n_rest] = c->objs[i];
            Py_INCREF(objs[n_rest]);
            PyTuple_SET_ITEM(kept, n_rest, objs[n_rest]);
            n_rest++;
        }
        PyObject *ev = hands_run(h, rest, objs, n_rest, kept, 5, NULL, NULL);
        Py_DECREF(kept);
        if (!ev || ev == Py_None) {
            if (ev) PyErr_SetString(PyExc_RuntimeError, "discard: the cards kept were not taken");
            Py_XDECREF(ev);
            return NULL;
        }
        return discard_result(h, (int)thrown, ev, as_object);
    }
    PyObject *args = pack_args(hand, h->ev_tables, thrown, NULL);
    char kept[64], lost[64];
    int n_kept = kept_indexes(c, (int)thrown, kept), n_lost = dead_indexes(c, dead, lost);
    PyObject *ev = new_evaluation(h, best, h->ev_discard_later, args,
                                  cards_tuple(h, kept, n_kept), cards_tuple(h, lost, n_lost));
    return discard_result(h, (int)thrown, ev, as_object);
}

/* Whether a hand just after drawing may go out, as payme.solver.can_go_out judges it (the
 * search priced 1 a card): the indexes of the discards that let it, lowest first, -1 for
 * going out without one. */
static PyObject *go_out_answer(const hctx_t *c, const st_t *state, const char *iso_pos) {
    Hands *h = c->h;
    GSearch *g = c->g;
    const shape_t *s = g->sp;
    int aside = c->n_aside;
    /* Removing one card leaves at most one fewer unmelded card: a hand that leaves two or
     * more unmelded at best cannot go out at all (one search answers most hands). */
    if (aside >= 2) return PyTuple_New(0);
    int64_t v = g_solve(g, state, c->n_any, 2, 0);
    if (v == -2) return NULL;
    if (aside + v >= 2) return PyTuple_New(0);
    int found[66], n_found = 0;
    if (h->allow_none && !aside) {
        if ((v = g_solve(g, state, c->n_any, 1, 0)) == -2) return NULL;
        if (!v) found[n_found++] = -1;
    }
    char seen[64] = {0};
    for (int i = 0; i < c->n_cards; i++) seen[c->index[i]] = 1;
    for (int x = 0; x < 64; x++) {
        if (!seen[x] || h->barred[x]) continue;
        int left = aside;
        st_t rest = *state;
        int64_t b = c->n_any;
        if (x < NREG ? iso_pos[h->pos_of[x]] : h->kind[x] == 2)
            left--; /* one copy of a card set aside */
        else if (x < NREG)
            st_sub(&rest, &rest, &s->unit[h->pos_of[x]]);
        else if (h->kind[x] == 3)
            b--;
        if (left) continue;
        if ((v = g_solve(g, &rest, b, 1, 0)) == -2) return NULL;
        if (!v) found[n_found++] = x;
    }
    return int_tuple(found, n_found);
}

/* The hand's search as an object of its own that outlives this call (a GSearch, its memo
 * kept across the values asked), with what a caller needs to ask them: (search, start
 * state, the regular cards set aside -- an index per copy, in the order of their
 * positions --, the points of every card set aside, pure wild cards of any scope, cards
 * other than regular ones). */
static PyObject *search_object(const hctx_t *c, const st_t *state, int64_t aside,
                               const char *iso_pos, const int *field, int others) {
    const GSearch *src = c->g;
    Hands *h = c->h;
    GSearch *g = (GSearch *)GSearchType.tp_alloc(&GSearchType, 0);
    if (!g) return NULL;
    g->s = *src->sp;
    g->sp = &g->s;
    g->guard = src->guard;
    g->n_any = src->n_any;
    Py_ssize_t n_moves = src->start[NREG];
    memcpy(g->start, src->start, sizeof(g->start));
    g->end[0] = PyMem_Malloc(sizeof(int64_t) * (src->n_any + 1));
    g->end[1] = PyMem_Malloc(sizeof(int64_t) * (src->n_any + 1));
    g->moves = PyMem_Malloc(sizeof(gmove_t) * (n_moves ? n_moves : 1));
    if (!g->end[0] || !g->end[1] || !g->moves) {
        Py_DECREF(g);
        return PyErr_NoMemory();
    }
    memcpy(g->end[0], src->end[0], sizeof(int64_t) * (src->n_any + 1));
    memcpy(g->end[1], src->end[1], sizeof(int64_t) * (src->n_any + 1));
    memcpy(g->moves, src->moves, sizeof(gmove_t) * n_moves);
    int iso[64], n_iso = 0;
    for (int p = 0; p < NREG; p++)
        if (iso_pos[p])
            for (int k = 0; k < field[p]; k++) iso[n_iso++] = h->index_at[p];
    PyObject *start = st_to(state), *isolated = int_tuple(iso, n_iso);
    if (!start || !isolated) {
        Py_XDECREF(start);
        Py_XDECREF(isolated);
        Py_DECREF(g);
        return NULL;
    }
    return Py_BuildValue("(NNNLii)", (PyObject *)g, start, isolated, (long long)aside,
                         c->n_any, others);
}

/* The answer for the cards of ``index`` (their objects ``objs``), by ``mode``: 0, the
 * evaluation -- (points, search total, picks), or with ``hand`` (the caller's hand) the
 * Evaluation itself (see Hands.bind); 1, the best discard (see discard_answer); 2, the
 * discards that go out (see go_out_answer); 3, the search itself (see search_object); 4,
 * the card indexes of an evaluation's cards and deadwood from its picks ``walk`` (see
 * card_indexes); 5, as 0 with ``hand``, the Evaluation's cards and deadwood set at once; 6,
 * as 1, the BestDiscard itself (see discard_result); 7, the evaluation's points and
 * deadwood as payme.codes.scored_code makes them (see Hands.layouts).
 * ``price``: each kind of card's price in deadwood instead of the Hands' own (NULL: its
 * own; mode 0 without ``hand`` only).  None for a hand not taken. */
static PyObject *hands_run(Hands *h, const int *index, PyObject *const *objs, Py_ssize_t n_cards,
                           PyObject *hand, int mode, const int64_t *price, PyObject *walk) {
    if (h->n > 200000) hands_clear_cache(h); /* bounded, as the shape book's dicts */
    if (n_cards > h->max_hand) Py_RETURN_NONE;
    const shape_t *s = &h->s;
    const int64_t *card_cost = h->card_cost;
    shape_t priced;
    if (price) {
        if (mode || hand) {
            PyErr_SetString(PyExc_RuntimeError, "a price is for the points alone");
            return NULL;
        }
        priced = h->s;
        for (int p = 0; p < NREG; p++) priced.cost[p] = price[h->index_at[p]];
        s = &priced;
        card_cost = price;
    }
    unsigned char left[64];
    memcpy(left, h->limit, sizeof(left));
    uint32_t held[4] = {0, 0, 0, 0};
    int count[13] = {0}, copies[13][4];
    memset(copies, 0, sizeof(copies));
    int field[NREG];
    memset(field, 0, sizeof(field));
    int64_t any_cost[64], aside = 0;
    int n_any = 0, n_conv = 0, others = 0;
    hctx_t c;
    c.h = h;
    c.n_aside = c.n_single = 0;
    c.n_cards = (int)n_cards;
    c.index = index;
    c.objs = objs;
    c.left = left;
    uint64_t present = 0, at_pos = 0; /* card indexes held, positions held */
    for (Py_ssize_t i = 0; i < n_cards; i++) {
        int idx = index[i];
        if (idx < 0 || idx >= h->n_cards || !left[idx]) Py_RETURN_NONE;
        left[idx]--;
        present |= (uint64_t)1 << idx;
        if (idx < NREG) {
            int r = idx % 13, su = idx / 13, p = h->pos_of[idx];
            held[su] |= (uint32_t)2 << r;
            count[r]++;
            if (++copies[r][su] > 15) Py_RETURN_NONE;
            field[p]++;
            at_pos |= (uint64_t)1 << p;
            if (s->conv[p]) n_conv++;
            continue;
        }
        others++;
        switch (h->kind[idx]) {
        case 1: c.single_idx[c.n_single++] = idx; break; /* a one-card meld: no points */
        case 2:
            aside += card_cost[idx];
            c.aside_idx[c.n_aside++] = idx;
            break;
        case 3: c.any_idx[n_any++] = idx; break;
        default: Py_RETURN_NONE; /* a scoped wild card */
        }
    }
    c.present = present;
    if ((mode == 1 || mode == 6) && !n_cards) Py_RETURN_NONE; /* no card to discard */
    if ((mode == 1 || mode == 6) && !h->ev_type) {
        PyErr_SetString(PyExc_RuntimeError, "Hands.discard before Hands.bind");
        return NULL;
    }
    /* The any-scope wild cards, dearest first, then by index (as Search._sort_others
     * sorts them; insertion sort: a handful). */
    for (int i = 1; i < n_any; i++) {
        int x = c.any_idx[i], k = i;
        while (k > 0 && (card_cost[c.any_idx[k - 1]] < card_cost[x] ||
                         (card_cost[c.any_idx[k - 1]] == card_cost[x] &&
                          c.any_idx[k - 1] > x)))
            c.any_idx[k] = c.any_idx[k - 1], k--;
        c.any_idx[k] = x;
    }
    for (int i = 0; i < n_any; i++) any_cost[i] = card_cost[c.any_idx[i]];
    c.n_any = n_any;
    /* The leftover costs first: the only step that may call Python (and so let another
     * thread in, which may clear the bundle cache), before any bundle is held below. */
    int64_t ends0[66], ends1[66], fate0[66], fate1[66];
    if (hands_ends(h, any_cost, n_any, ends0, ends1, fate0, fate1) < 0) return NULL;
    c.fate[1] = fate0; /* a discard owed */
    c.fate[0] = fate1;
    /* The candidate bundles, as Search._candidates finds them: runs by suit (or cluster),
     * then sets by rank. */
    cbundle_t *found[MOST_BUNDLES];
    int n_found = 0;
    int w_run = n_any + n_conv > 63 ? 63 : n_any + n_conv;
    int gap = h->plan_gap[w_run], need = h->plan_need[w_run], cap = h->plan_cap[w_run];
    for (int su = 0; su < 4; su++) {
        uint64_t mask = held[su];
        if (__builtin_popcountll(mask) < need) continue;
        if (gap < 0 || (mask & 2 && h->ace_high)) {
            uint64_t key = (uint64_t)su << 24 | mask << 8 | (uint64_t)w_run << 1;
            cbundle_t *b = hands_find(h, key | TAG_SUIT);
            if (!b) {
                b = make_suit_bundle(&h->t, h->pos_of, s, su, mask, w_run);
                if (!b || hands_put(h, key | TAG_SUIT, b) < 0) {
                    cbundle_free(b);
                    return too_many();
                }
            }
            if (n_found == MOST_BUNDLES) Py_RETURN_NONE;
            found[n_found++] = b;
            continue;
        }
        uint64_t reach = mask;
        for (int k = 1; k < gap; k++) reach |= mask << k;
        while (reach) {
            uint64_t row = reach & ~(reach + (reach & (~reach + 1)));
            reach ^= row;
            uint64_t part = row & mask;
            int n = __builtin_popcountll(part);
            if (n < need) continue;
            int part_cap = h->half_limit && n < cap ? n : cap;
            uint64_t key = (uint64_t)su << 24 | part << 8 | (uint64_t)part_cap << 1;
            cbundle_t *b = hands_find(h, key | TAG_PART);
            if (!b) {
                b = make_part_bundle(&h->t, h->pos_of, s, su, part, part_cap);
                if (!b || hands_put(h, key | TAG_PART, b) < 0) {
                    cbundle_free(b);
                    return too_many();
                }
            }
            if (st_zero(&b->used)) continue;
            if (n_found == MOST_BUNDLES) Py_RETURN_NONE;
            found[n_found++] = b;
        }
    }
    int w_set = n_any + n_conv > 63 ? 63 : n_any + n_conv;
    int least = h->set_min - w_set;
    if (h->half_limit && least < (h->set_min + 1) / 2) least = (h->set_min + 1) / 2;
    if (least < 1) least = 1;
    for (int r = 0; r < 13; r++) {
        if (count[r] < least) continue;
        uint64_t code = 0;
        for (int su = 0; su < 4; su++) code |= (uint64_t)copies[r][su] << (4 * su);
        uint64_t key = (uint64_t)1 << 40 | (uint64_t)r << 24 | code << 8 | (uint64_t)w_set;
        cbundle_t *b = hands_find(h, key | TAG_SET);
        if (!b) {
            b = make_set_bundle(&h->t, h->pos_of, s, r + 1, copies[r], w_set);
            if (!b || hands_put(h, key | TAG_SET, b) < 0) {
                cbundle_free(b);
                return too_many();
            }
        }
        if (n_found == MOST_BUNDLES) Py_RETURN_NONE;
        found[n_found++] = b;
    }
    /* One search: its moves by anchor, each anchor's in bundle order. */
    GSearch g; /* on the stack: only the fields the search reads are set */
    g.sp = s;
    g.scoped = g.shift = g.gbits = g.n_set = g.n_run = 0;
    g.mask_g = g.mask_q = 0;
    g.term = NULL;
    memset(g.memo, 0, sizeof(g.memo));
    g.guard = h->guard;
    g.n_any = n_any;
    int per[NREG + 1];
    memset(per, 0, sizeof(per));
    st_t used;
    memset(&used, 0, sizeof(used));
    Py_ssize_t total_moves = 0;
    for (int i = 0; i < n_found; i++) {
        const cbundle_t *b = found[i];
        for (int w = 0; w < NW; w++) used.w[w] |= b->used.w[w];
        for (int k = 0; k < b->n_groups; k++) per[b->anchor[k]] += b->count[k];
    }
    for (int j = 0; j < NREG; j++) {
        g.start[j] = (int)total_moves;
        total_moves += per[j];
    }
    g.start[NREG] = (int)total_moves;
    gmove_t stack_moves[512];
    g.moves = total_moves <= 512 ? stack_moves : PyMem_Malloc(sizeof(gmove_t) * total_moves);
    if (!g.moves) return PyErr_NoMemory();
    int at[NREG];
    memcpy(at, g.start, sizeof(at));
    for (int i = 0; i < n_found; i++) {
        const cbundle_t *b = found[i];
        const gmove_t *mv = b->moves;
        for (int k = 0; k < b->n_groups; k++) {
            memcpy(&g.moves[at[b->anchor[k]]], mv, sizeof(gmove_t) * b->count[k]);
            at[b->anchor[k]] += b->count[k];
            mv += b->count[k];
        }
    }
    /* Cards in no candidate (and not wild): deadwood whatever happens, set aside. */
    st_t state;
    memset(&state, 0, sizeof(state));
    char iso_pos[NREG];
    memset(iso_pos, 0, sizeof(iso_pos));
    for (uint64_t m = at_pos; m; m &= m - 1) {
        int p = __builtin_ctzll(m);
        int bit = p * s->width;
        int touched = st_bits(&used, bit, s->width) != 0;
        if (!touched && !s->conv[p]) {
            aside += field[p] * s->cost[p];
            iso_pos[p] = 1;
            for (int k = 0; k < field[p]; k++) c.aside_idx[c.n_aside++] = h->index_at[p];
            continue;
        }
        uint64_t add = (uint64_t)field[p] << (bit % 64);
        state.w[bit / 64] += add; /* a field never straddles words: width divides 64? */
        if (bit % 64 + s->width > 64) state.w[bit / 64 + 1] += (uint64_t)field[p] >> (64 - bit % 64);
    }
    PyObject *result = NULL;
    /* The Hands' memos when no other search holds them (a search within this one, as a
     * discard's cards kept evaluated afresh, or another thread's, makes its own). */
    int lent = !h->busy;
    if (lent) {
        h->busy = 1;
        for (int i = 0; i < 2; i++) {
            g.memo[i] = h->scratch[i];
            memset(&h->scratch[i], 0, sizeof(table_t));
            table_clear(&g.memo[i]);
        }
    }
    g.end[1] = ends0; /* a discard owed */
    g.end[0] = ends1;
    c.g = &g;
    if (mode == 1 || mode == 6) {
        result = discard_answer(&c, hand, &state, aside, !others && !n_conv, mode == 6);
        goto done;
    }
    if (mode == 2) {
        result = go_out_answer(&c, &state, iso_pos);
        goto done;
    }
    if (mode == 3) {
        result = search_object(&c, &state, aside, iso_pos, field, others);
        goto done;
    }
    if (mode == 4) {
        /* The walk of the picks given (an evaluation's, see card_indexes). */
        int given[PICKS_MOST], dead[64] = {0};
        Py_ssize_t n = PyTuple_GET_SIZE(walk);
        if (n > PICKS_MOST) {
            PyErr_SetString(PyExc_ValueError, "card_indexes: too many picks");
            goto done;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            long x = PyLong_AsLong(PyTuple_GET_ITEM(walk, i));
            if (x == -1 && PyErr_Occurred()) goto done;
            given[i] = x < -3 || x > 1 << 20 ? -4 : (int)x; /* -4: refused below */
        }
        if (check_picks(&g, &state, given, (int)n) < 0) goto done;
        hand_walk(&c, &state, n_any, 0, given, (int)n, dead);
        char kept[64], lost[64];
        int n_kept = kept_indexes(&c, -1, kept), n_lost = dead_indexes(&c, dead, lost);
        result = Py_BuildValue("(y#y#)", kept, (Py_ssize_t)n_kept, lost, (Py_ssize_t)n_lost);
        goto done;
    }
    int64_t total = g_solve(&g, &state, n_any, INF, 0);
    if (total == -2) goto done;
    int buf[PICKS_MOST];
    int n = 0;
    if (total < INF && (n = g_picks(&g, &state, n_any, 0, buf)) < 0) goto done;
    if (mode == 7) {
        /* The deadwood as card_indexes finds it from these picks (the same walk). */
        int64_t points = total + aside;
        if (total >= INF || points > 0xFFFF) { /* never, or too many points: Python's path */
            result = Py_NewRef(Py_None);
            goto done;
        }
        int dead[64] = {0};
        char code[66];
        hand_walk(&c, &state, n_any, 0, buf, n, dead);
        int n_lost = dead_indexes(&c, dead, code + 2);
        code[0] = (char)(points >> 8);
        code[1] = (char)(points & 0xFF);
        result = PyBytes_FromStringAndSize(code, 2 + n_lost);
        goto done;
    }
    if (!hand) {
        PyObject *picks = int_tuple(buf, n);
        if (!picks) goto done;
        result = Py_BuildValue("(LLN)", (long long)(total < INF ? total + aside : total),
                               (long long)total, picks);
    } else if (total >= INF) { /* never: leaving every card unmelded always answers */
        result = Py_NewRef(Py_None);
    } else {
        result = make_evaluation(&c, hand, &state, total + aside, total, buf, n, mode == 5);
    }
done:
    for (int i = 0; i < 2; i++) {
        /* Kept for the next hand unless a big hand made it big (a big table spreads the
         * next small hand's few entries over memory that is no longer in the caches). */
        if (lent && g.memo[i].cap <= SCRATCH_MOST)
            h->scratch[i] = g.memo[i];
        else
            table_free(&g.memo[i]);
    }
    if (lent) h->busy = 0;
    if (g.moves != stack_moves) PyMem_Free(g.moves);
    return result;
}

static PyObject *cards_run(Hands *h, PyObject *cards, PyObject *hand, int mode,
                           const int64_t *price, PyObject *picks) {
    if (!PyTuple_Check(cards)) Py_RETURN_NONE;
    Py_ssize_t n = PyTuple_GET_SIZE(cards);
    if (n > h->max_hand) Py_RETURN_NONE;
    int index[64];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *c = PyTuple_GET_ITEM(cards, i);
        int idx = -1;
        /* Cards are shared objects (one per kind): found by identity, else by index. */
        size_t slot = ptr_hash(c);
        while (h->ptr_key[slot] && h->ptr_key[slot] != c) slot = (slot + 1) & 255;
        if (h->ptr_key[slot]) idx = h->ptr_idx[slot];
        if (idx < 0) {
            if ((PyObject *)Py_TYPE(c) != h->card_type) Py_RETURN_NONE;
            PyObject *io = PyObject_GetAttr(c, h->index_name);
            if (!io) return NULL;
            long v = PyLong_AsLong(io);
            Py_DECREF(io);
            if (v == -1 && PyErr_Occurred()) return NULL;
            if (v < 0 || v >= h->n_cards) Py_RETURN_NONE;
            idx = (int)v;
        }
        index[i] = idx;
    }
    return hands_run(h, index, &PyTuple_GET_ITEM(cards, 0), n, hand, mode, price, picks);
}

static PyObject *Hands_evaluate(Hands *h, PyObject *cards) {
    return cards_run(h, cards, NULL, 0, NULL, NULL);
}

/* Python's str.split() whitespace among ASCII characters, and the comma parse_hand adds. */
static inline int separates(unsigned char ch) {
    return ch == ' ' || ch == ',' || (ch >= 9 && ch <= 13) || (ch >= 28 && ch <= 31);
}

/* evaluate_text(text): the same for a hand given as text, read as parse_hand reads it
 * (tokens between commas and whitespace, each a known spelling); None for text holding
 * anything else (non-ASCII, an unknown token: parse_hand then reads it or names it), or
 * of another number of cards than ``size`` (-1: any). */
static PyObject *text_run(Hands *h, PyObject *text, PyObject *hand, int mode, int size,
                          PyObject *picks) {
    if (!PyUnicode_Check(text) || !PyUnicode_IS_ASCII(text)) Py_RETURN_NONE;
    const unsigned char *at = (const unsigned char *)PyUnicode_DATA(text);
    Py_ssize_t len = PyUnicode_GET_LENGTH(text), i = 0;
    int index[64], n = 0;
    while (i < len) {
        if (separates(at[i])) {
            i++;
            continue;
        }
        uint64_t word = 0;
        int k = 0;
        while (i < len && !separates(at[i])) {
            if (k == 8) Py_RETURN_NONE;
            word |= (uint64_t)at[i] << (8 * k++);
            i++;
        }
        size_t slot = key_hash(word) & 1023;
        while (h->spelled[slot] && h->spelled[slot] != word) slot = (slot + 1) & 1023;
        if (!h->spelled[slot] || n == h->max_hand) Py_RETURN_NONE;
        index[n++] = h->spelled_as[slot];
    }
    if (size >= 0 && n != size) Py_RETURN_NONE; /* a hand of another size: Python names it */
    PyObject *objs[64];
    for (int k = 0; k < n; k++) objs[k] = h->card_of[index[k]];
    return hands_run(h, index, objs, n, hand, mode, NULL, picks);
}

static PyObject *Hands_evaluate_text(Hands *h, PyObject *text) {
    return text_run(h, text, NULL, 0, -1, NULL);
}

/* evaluation(hand): the Evaluation of a hand given as text or a tuple of cards, as
 * payme.solver.evaluate returns it (see bind), or None for a hand not taken. */
static PyObject *Hands_evaluation(Hands *h, PyObject *hand) {
    if (!h->ev_type) {
        PyErr_SetString(PyExc_RuntimeError, "Hands.evaluation before Hands.bind");
        return NULL;
    }
    if (PyUnicode_CheckExact(hand)) return text_run(h, hand, hand, 0, -1, NULL);
    if (PyTuple_CheckExact(hand)) return cards_run(h, hand, hand, 0, NULL, NULL);
    Py_RETURN_NONE;
}

/* discard(hand): the best discard of a hand, text or cards, as best_discard chooses it
 * where no card is barred from the discard (see discard_answer): (index of the card,
 * Evaluation of the cards kept), or None for a hand not taken (or when no card may go). */
static PyObject *Hands_discard(Hands *h, PyObject *hand) {
    if (PyUnicode_CheckExact(hand)) return text_run(h, hand, hand, 1, -1, NULL);
    if (PyTuple_CheckExact(hand)) return cards_run(h, hand, hand, 1, NULL, NULL);
    Py_RETURN_NONE;
}

/* best(hand): the same as payme.solver.best_discard returns it, a BestDiscard (Hands.bind's
 * class), or None for a hand not taken (or when no card may go, or before a bind with it). */
static PyObject *Hands_best(Hands *h, PyObject *hand) {
    if (!h->bd_type) Py_RETURN_NONE;
    if (PyTuple_CheckExact(hand)) return cards_run(h, hand, hand, 6, NULL, NULL);
    if (PyUnicode_CheckExact(hand)) return text_run(h, hand, hand, 6, -1, NULL);
    Py_RETURN_NONE;
}

/* Up to 64 ints from a sequence, each in [lo, hi] (``n``: how many there must be, or -1
 * for any number): how many, or -1 with an exception set naming ``what``. */
static Py_ssize_t bounded_ints(PyObject *seq, int64_t *out, Py_ssize_t n, int64_t lo, int64_t hi,
                               const char *what) {
    Py_ssize_t got = PyObject_Length(seq);
    if (got < 0) return -1;
    if (got > 64 || (n >= 0 && got != n)) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items", what, got);
        return -1;
    }
    if (int_list(seq, out, got, what) < 0) return -1;
    for (Py_ssize_t i = 0; i < got; i++)
        if (out[i] < lo || out[i] > hi) {
            PyErr_Format(PyExc_ValueError, "%s: %lld out of range", what, (long long)out[i]);
            return -1;
        }
    return got;
}

/* points(cards, price): the fewest points of a hand of cards with each kind of card
 * priced in deadwood by ``price`` (by card index) instead, as a Search priced so finds
 * them (value of the start plus the cards set aside), or None for a hand not taken. */
static PyObject *Hands_points(Hands *h, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "points(cards, price)");
        return NULL;
    }
    int64_t price[64];
    if (bounded_ints(args[1], price, h->n_cards, 0, (int64_t)1 << 24, "points: price") < 0)
        return NULL;
    PyObject *got = cards_run(h, args[0], NULL, 0, price, NULL);
    if (!got || got == Py_None) return got;
    PyObject *points = PyTuple_GET_ITEM(got, 0);
    Py_INCREF(points);
    Py_DECREF(got);
    return points;
}

/* card_indexes(hand, tables, total, picks): the card indexes (bytes, lowest first) of
 * the cards and of the deadwood of the evaluation that evaluation() made of ``hand`` with
 * these picks (its walk replayed, no search); ``tables`` and ``total`` are not read (the
 * arguments of the evaluation's layout). */
static PyObject *Hands_card_indexes(Hands *h, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 || !PyTuple_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "card_indexes(hand, tables, total, picks)");
        return NULL;
    }
    PyObject *got = PyUnicode_CheckExact(args[0]) ? text_run(h, args[0], NULL, 4, -1, args[3])
                    : PyTuple_CheckExact(args[0]) ? cards_run(h, args[0], NULL, 4, NULL, args[3])
                                                  : Py_NewRef(Py_None);
    if (got == Py_None) {
        Py_DECREF(got);
        PyErr_SetString(PyExc_ValueError, "card_indexes: a hand evaluation() does not take");
        return NULL;
    }
    return got;
}

/* search(cards): the hand's search, to be asked values from many starts (see
 * search_object), or None for a hand not taken. */
static PyObject *Hands_search(Hands *h, PyObject *cards) {
    if (PyTuple_CheckExact(cards)) return cards_run(h, cards, NULL, 3, NULL, NULL);
    Py_RETURN_NONE;
}

/* go_out(hand, size): the discards that let a hand (text or cards) of ``size`` cards (-1:
 * any) go out, as can_go_out finds them (a Hands priced 1 a card; see going_out): card
 * indexes, lowest first, -1 for none; () when it cannot; None for a hand not taken (one of
 * another size among them: can_go_out then names the size). */
static PyObject *Hands_go_out(Hands *h, PyObject *const *args, Py_ssize_t nargs) {
    long size = nargs == 2 ? PyLong_AsLong(args[1]) : -2;
    if (size == -2 || (size == -1 && PyErr_Occurred())) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "go_out(hand, size)");
        return NULL;
    }
    if (PyUnicode_CheckExact(args[0])) return text_run(h, args[0], NULL, 2, (int)size, NULL);
    if (PyTuple_CheckExact(args[0]) && (size < 0 || PyTuple_GET_SIZE(args[0]) == size))
        return cards_run(h, args[0], NULL, 2, NULL, NULL);
    Py_RETURN_NONE;
}

/* going_out(barred, allow_none): the cards (indexes) that may not be the one left over,
 * and whether a hand may go out without a discard. */
static PyObject *Hands_going_out(Hands *h, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "going_out(barred, allow_none)");
        return NULL;
    }
    int64_t idx[64];
    Py_ssize_t n = bounded_ints(args[0], idx, -1, 0, 63, "going_out: barred");
    int allow = n < 0 ? -1 : PyObject_IsTrue(args[1]);
    if (allow < 0) return NULL;
    char barred[64] = {0};
    for (Py_ssize_t i = 0; i < n; i++) barred[idx[i]] = 1;
    memcpy(h->barred, barred, sizeof(barred));
    h->allow_none = allow;
    Py_RETURN_NONE;
}

/* bind(cls, rules, dealt, laid_out, tables, discard_laid_out, indexes, discard_cls): what
 * evaluation() and discard() make: instances of cls with these rules and dealt, laid out by
 * laid_out(hand, tables, total, picks), or after a discard by
 * discard_laid_out(hand, tables, index of the card thrown); an evaluation() reads its cards'
 * and deadwood's indexes from indexes(hand, tables, total, picks) (see card_indexes); best()
 * makes instances of discard_cls (none before a bind with it). */
static PyObject *Hands_bind(Hands *h, PyObject *const *args, Py_ssize_t nargs) {
    if ((nargs != 7 && nargs != 8) || !PyType_Check(args[0]) ||
        (nargs == 8 && !PyType_Check(args[7]))) {
        PyErr_SetString(PyExc_TypeError, "bind(cls, rules, dealt, laid_out, tables, "
                                         "discard_laid_out, indexes, discard_cls=None)");
        return NULL;
    }
    PyObject **slot[8] = {&h->ev_type,   &h->ev_rules,  &h->ev_dealt,
                          &h->ev_later,  &h->ev_tables, &h->ev_discard_later,
                          &h->ev_indexes, &h->bd_type};
    /* The dicts of what evaluation(), discard() and best() make, in the order their keys
     * were set before (placeholders None). */
    PyObject *full = PyDict_New(), *lazy = PyDict_New(), *bd = PyDict_New();
    PyObject *keys_full[6] = {h->name_cards, h->name_deadwood, h->name_points,
                              h->name_rules, h->name_dealt,    h->name_pending};
    PyObject *keys_lazy[4] = {h->name_points, h->name_rules, h->name_dealt, h->name_pending};
    int ok = full && lazy && bd;
    for (int i = 0; ok && i < 6; i++)
        ok = PyDict_SetItem(full, keys_full[i], keys_full[i] == h->name_rules   ? args[1]
                                                : keys_full[i] == h->name_dealt ? args[2]
                                                                                : Py_None) == 0;
    for (int i = 0; ok && i < 4; i++)
        ok = PyDict_SetItem(lazy, keys_lazy[i], keys_lazy[i] == h->name_rules   ? args[1]
                                                : keys_lazy[i] == h->name_dealt ? args[2]
                                                                                : Py_None) == 0;
    ok = ok && PyDict_SetItem(bd, h->name_card, Py_None) == 0 &&
         PyDict_SetItem(bd, h->name_evaluation, Py_None) == 0;
    if (!ok) {
        Py_XDECREF(full);
        Py_XDECREF(lazy);
        Py_XDECREF(bd);
        return NULL;
    }
    Py_XSETREF(h->ev_full, full);
    Py_XSETREF(h->ev_lazy, lazy);
    Py_XSETREF(h->bd_fields, bd);
    for (int i = 0; i < nargs; i++) {
        Py_INCREF(args[i]);
        Py_XSETREF(*slot[i], args[i]);
    }
    Py_RETURN_NONE;
}

/* A memo's answer for ``hand`` (new reference), None when it has none, NULL with an error:
 * read as payme.memo.RecentMemo.get reads it (its newer answers, then the older ones through
 * its get, which moves them to the newer). */
static PyObject *memo_get(PyObject *memo, PyObject *hand) {
    PyObject *table = PyObject_GetAttrString(memo, "new");
    if (!table) return NULL;
    if (!PyDict_Check(table)) {
        Py_DECREF(table);
        PyErr_SetString(PyExc_TypeError, "layouts: a memo's tables are dicts");
        return NULL;
    }
    PyObject *known = PyDict_GetItemWithError(table, hand);
    Py_DECREF(table);
    if (known) return Py_NewRef(known);
    if (PyErr_Occurred()) return NULL;
    table = PyObject_GetAttrString(memo, "old");
    if (!table) return NULL;
    known = PyDict_Check(table) ? PyDict_GetItemWithError(table, hand) : NULL;
    Py_DECREF(table);
    if (!known) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    return PyObject_CallMethod(memo, "get", "O", hand);
}

/* memo.put(hand, answer) as payme.memo.RecentMemo.put does it (the newer answers full:
 * they become the older, and the newer start empty), without the call: 0, or -1 with an
 * error. */
static int memo_put(PyObject *memo, PyObject *hand, PyObject *answer) {
    PyObject *table = PyObject_GetAttrString(memo, "new"), *size = NULL;
    int done = -1;
    if (!table || !(size = PyObject_GetAttrString(memo, "size"))) goto out;
    Py_ssize_t most = PyLong_AsSsize_t(size);
    if (most == -1 && PyErr_Occurred()) goto out;
    if (!PyDict_Check(table)) {
        PyErr_SetString(PyExc_TypeError, "layouts: a memo's tables are dicts");
        goto out;
    }
    if (PyDict_GET_SIZE(table) >= most) {
        if (PyObject_SetAttrString(memo, "old", table) < 0) goto out;
        Py_SETREF(table, PyDict_New());
        if (!table || PyObject_SetAttrString(memo, "new", table) < 0) goto out;
    }
    done = PyDict_SetItem(table, hand, answer);
out:
    Py_XDECREF(table);
    Py_XDECREF(size);
    return done;
}

/* layouts(key, adds[, memo]): for each card index of ``adds`` (bytes), the best layout of
 * the hand whose card indexes are ``key`` (bytes, lowest first) with that card added, as
 * payme.game.evaluation keeps evaluate()'s answer: payme.codes.scored_code(points, the
 * deadwood's card indexes, lowest first); None for a hand evaluation() does not take (the
 * caller asks evaluate()).  A list, in the order of ``adds``: one call for the hands a
 * draw may make, each searched as evaluate() searches it.  ``memo`` (a
 * payme.memo.RecentMemo keyed by a hand's card indexes, or None): the answers it holds are
 * taken from it, and those found here put into it. */
static PyObject *Hands_layouts(Hands *h, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 2 || nargs > 3 || !PyBytes_Check(args[0]) || !PyBytes_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "layouts(key, adds[, memo]): two bytes");
        return NULL;
    }
    PyObject *memo = nargs == 3 && args[2] != Py_None ? args[2] : NULL;
    const unsigned char *key = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    const unsigned char *adds = (const unsigned char *)PyBytes_AS_STRING(args[1]);
    Py_ssize_t n_key = PyBytes_GET_SIZE(args[0]), n_adds = PyBytes_GET_SIZE(args[1]);
    PyObject *out = PyList_New(n_adds);
    if (!out) return NULL;
    for (Py_ssize_t a = 0; a < n_adds; a++) {
        PyObject *got = NULL;
        int add = adds[a];
        if (n_key + 1 > 64) {
            got = Py_NewRef(Py_None);
        } else {
            int index[64];
            char chars[64];
            PyObject *objs[64];
            Py_ssize_t n = 0, k = 0, bad = add >= h->n_cards;
            for (; k < n_key && key[k] <= add; k++) index[n++] = key[k];
            index[n++] = add;
            for (; k < n_key; k++) index[n++] = key[k];
            for (Py_ssize_t i = 0; i < n; i++) {
                chars[i] = (char)index[i];
                if (index[i] >= h->n_cards) bad = 1;
                else objs[i] = h->card_of[index[i]];
            }
            PyObject *hand = NULL;
            if (memo) {
                hand = PyBytes_FromStringAndSize(chars, n);
                if (hand) got = memo_get(memo, hand);
                if (got == Py_None) Py_CLEAR(got);
                else if (!got) goto failed;
            }
            if (!got) {
                got = bad ? Py_NewRef(Py_None) : hands_run(h, index, objs, n, NULL, 7, NULL, NULL);
                if (got && got != Py_None && memo && memo_put(memo, hand, got) < 0) Py_CLEAR(got);
            }
        failed:
            Py_XDECREF(hand);
        }
        if (!got) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, a, got);
    }
    return out;
}

static PyObject *Hands_forget(Hands *h, PyObject *unused) {
    hands_clear_cache(h);
    Py_RETURN_NONE;
}

static PyMethodDef Hands_methods[] = {
    {"evaluate", (PyCFunction)Hands_evaluate, METH_O,
     "evaluate(cards): (points, search total, picks), or None for a hand not taken."},
    {"evaluate_text", (PyCFunction)Hands_evaluate_text, METH_O,
     "evaluate_text(text): the same for a hand given as text."},
    {"discard", (PyCFunction)Hands_discard, METH_O,
     "discard(hand): (index thrown, Evaluation of the cards kept), or None."},
    {"best", (PyCFunction)Hands_best, METH_O,
     "best(hand): the BestDiscard of a hand, or None."},
    {"points", (PyCFunction)(void (*)(void))Hands_points, METH_FASTCALL,
     "points(cards, price): the fewest points with these prices, or None."},
    {"card_indexes", (PyCFunction)(void (*)(void))Hands_card_indexes, METH_FASTCALL,
     "card_indexes(hand, tables, total, picks): (cards, deadwood) as card indexes."},
    {"search", (PyCFunction)Hands_search, METH_O,
     "search(cards): (GSearch, start state, cards set aside, their points, wild cards, "
     "other cards), or None."},
    {"go_out", (PyCFunction)(void (*)(void))Hands_go_out, METH_FASTCALL,
     "go_out(hand, size): the discards that go out (-1: none), or None for a hand not "
     "taken."},
    {"going_out", (PyCFunction)(void (*)(void))Hands_going_out, METH_FASTCALL,
     "going_out(barred, allow_none): the going-out rules go_out follows."},
    {"evaluation", (PyCFunction)Hands_evaluation, METH_O,
     "evaluation(hand): the Evaluation of a hand (text or cards), or None."},
    {"bind", (PyCFunction)(void (*)(void))Hands_bind, METH_FASTCALL,
     "bind(cls, rules, dealt, laid_out, tables, discard_laid_out): what evaluation() and "
     "discard() make."},
    {"layouts", (PyCFunction)(void (*)(void))Hands_layouts, METH_FASTCALL,
     "layouts(key, adds[, memo]): the scored code of each hand key plus a card of adds, or "
     "None."},
    {"forget", (PyCFunction)Hands_forget, METH_NOARGS, "Drop the compiled bundles."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject HandsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "payme.solver._core.Hands",
    .tp_basicsize = sizeof(Hands),
    .tp_dealloc = (destructor)Hands_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A rule set and round's evaluation of whole hands (payme.solver.evaluate).",
    .tp_methods = Hands_methods,
    .tp_new = Hands_new,
};

/* ---------------------------------------------------------------------------------------
 * NSearch: the lean search of hands without wild cards, memo kept across hands.  A best
 * move is kept as an id: 0 deadwood, -1 the discard, k > 0 the k-th meld (the cards it
 * takes, as the Python int the caller gave, in ``picks``). */

#define DISCARD (-1)

typedef struct {
    st_t delta;
    int32_t id;
} nmove_t;

typedef struct {
    PyObject_HEAD
    shape_t s;
    st_t guard;
    table_t memo[2]; /* [owed] */
    PyObject *ids;   /* dict: the cards a meld takes (int) -> its id */
    PyObject *picks; /* list: id -> the cards (int); picks[0] is 0 */
    PyObject *loaded; /* the candidate dict the moves below were read from */
    nmove_t *moves;
    Py_ssize_t moves_cap;
    int start[NREG], count[NREG];
} NSearch;

/* The lean search, as natural._make_solver (owed = 0) and _make_discard_solver (owed = 1):
 * at the lowest card, the candidate melds in order, then (a discard owed) discarding it,
 * then leaving it as deadwood.  -2: out of memory (an exception is set). */
static int64_t n_solve(NSearch *n, const st_t *state, int64_t budget, int owed) {
    const shape_t *s = &n->s;
    if (st_zero(state)) return owed ? INF : 0;
    int j = slot_of(s, state);
    st_t rest, sg, nxt;
    st_sub(&rest, state, &s->unit[j]);
    if (!owed && !n->count[j]) {
        /* Starts no meld: deadwood, no choice and no note. */
        int64_t c = s->cost[j];
        if (c >= budget) return c;
        int64_t v = n_solve(n, &rest, budget - c, 0);
        return v == -2 ? -2 : c + v;
    }
    table_t *memo = &n->memo[owed];
    entry_t *e = table_find(memo, state, 0);
    if (e) {
        int64_t hit = e->val;
        if (hit >= 0) return hit;
        if (-hit - 1 >= budget) return -hit - 1;
    }
    int64_t best = budget, v;
    int32_t pick = 0;
    for (int i = 0; i < NW; i++) sg.w[i] = state->w[i] | n->guard.w[i];
    const nmove_t *mv = &n->moves[n->start[j]];
    for (int i = 0; i < n->count[j]; i++, mv++) {
        if (!st_fits(&sg, &mv->delta, &n->guard)) continue;
        st_sub(&nxt, state, &mv->delta);
        if ((v = n_solve(n, &nxt, best, owed)) == -2) return -2;
        if (v < best) {
            best = v, pick = mv->id;
            if (!v) break;
        }
    }
    if (owed && best) {
        if ((v = n_solve(n, &rest, best, 0)) == -2) return -2;
        if (v < best) best = v, pick = DISCARD;
    }
    int64_t c = s->cost[j];
    if (best > c) {
        if ((v = n_solve(n, &rest, best - c, owed)) == -2) return -2;
        v += c;
        if (v < best) best = v, pick = 0;
    }
    e = table_put(memo, state, 0);
    if (!e) return -2;
    if (best < budget)
        e->val = best, e->pick = pick;
    else
        e->val = -budget - 1;
    return best;
}

static void NSearch_dealloc(NSearch *n) {
    table_free(&n->memo[0]);
    table_free(&n->memo[1]);
    Py_XDECREF(n->ids);
    Py_XDECREF(n->picks);
    Py_XDECREF(n->loaded);
    PyMem_Free(n->moves);
    Py_TYPE(n)->tp_free((PyObject *)n);
}

/* NSearch(width, cost, guard) */
static PyObject *NSearch_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    int width;
    PyObject *cost, *guard;
    if (!PyArg_ParseTuple(args, "iOO", &width, &cost, &guard)) return NULL;
    NSearch *n = (NSearch *)type->tp_alloc(type, 0);
    if (!n) return NULL;
    PyObject *conv = PyList_New(NREG), *none = PyList_New(0);
    if (!conv || !none) goto fail;
    for (int j = 0; j < NREG; j++) PyList_SET_ITEM(conv, j, PyLong_FromLong(0));
    int bad = shape_init(&n->s, width, cost, conv, none) < 0 || st_from(guard, &n->guard) < 0;
    Py_DECREF(conv);
    Py_DECREF(none);
    conv = none = NULL;
    if (bad) goto fail;
    n->ids = PyDict_New();
    n->picks = Py_BuildValue("[i]", 0);
    if (!n->ids || !n->picks) goto fail;
    return (PyObject *)n;
fail:
    Py_XDECREF(conv);
    Py_XDECREF(none);
    Py_DECREF(n);
    return NULL;
}

/* Read a hand's candidate melds (position -> tuple of the cards each takes) once per dict. */
static int n_load(NSearch *n, PyObject *cands) {
    if (cands == n->loaded) return 0;
    if (!PyDict_Check(cands)) {
        PyErr_SetString(PyExc_TypeError, "cands must be a dict");
        return -1;
    }
    memset(n->start, 0, sizeof(n->start));
    memset(n->count, 0, sizeof(n->count));
    Py_ssize_t pos = 0, total = 0;
    PyObject *key, *val;
    while (PyDict_Next(cands, &pos, &key, &val)) {
        if (!PyTuple_Check(val)) {
            PyErr_SetString(PyExc_TypeError, "candidate melds must be tuples");
            return -1;
        }
        total += PyTuple_GET_SIZE(val);
    }
    if (total > n->moves_cap) {
        nmove_t *m = PyMem_Realloc(n->moves, sizeof(nmove_t) * total);
        if (!m) {
            PyErr_NoMemory();
            return -1;
        }
        n->moves = m;
        n->moves_cap = total;
    }
    Py_ssize_t at = 0;
    pos = 0;
    while (PyDict_Next(cands, &pos, &key, &val)) {
        long p = PyLong_AsLong(key);
        if (p < 0 || p >= NREG) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "position out of range");
            return -1;
        }
        n->start[p] = (int)at;
        n->count[p] = (int)PyTuple_GET_SIZE(val);
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(val); i++, at++) {
            PyObject *d = PyTuple_GET_ITEM(val, i);
            if (st_from(d, &n->moves[at].delta) < 0) return -1;
            PyObject *id = PyDict_GetItemWithError(n->ids, d);
            if (id) {
                n->moves[at].id = (int32_t)PyLong_AsLong(id);
            } else {
                if (PyErr_Occurred()) return -1;
                Py_ssize_t k = PyList_GET_SIZE(n->picks);
                PyObject *kk = PyLong_FromSsize_t(k);
                if (!kk) return -1;
                int r = PyDict_SetItem(n->ids, d, kk);
                Py_DECREF(kk);
                if (r < 0 || PyList_Append(n->picks, d) < 0) return -1;
                n->moves[at].id = (int32_t)k;
            }
        }
    }
    Py_INCREF(cands);
    Py_XSETREF(n->loaded, cands);
    return 0;
}

static PyObject *n_call(NSearch *n, PyObject *const *args, Py_ssize_t nargs, int owed) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "solve(state, budget, cands)");
        return NULL;
    }
    st_t state;
    if (st_from(args[0], &state) < 0) return NULL;
    long long budget = PyLong_AsLongLong(args[1]);
    if (budget == -1 && PyErr_Occurred()) return NULL;
    if (budget > INF) budget = INF;
    if (n_load(n, args[2]) < 0) return NULL;
    int64_t v = n_solve(n, &state, budget, owed);
    if (v == -2) return NULL;
    return PyLong_FromLongLong(v);
}

static PyObject *NSearch_solve(NSearch *n, PyObject *const *args, Py_ssize_t nargs) {
    return n_call(n, args, nargs, 0);
}

static PyObject *NSearch_solve_d(NSearch *n, PyObject *const *args, Py_ssize_t nargs) {
    return n_call(n, args, nargs, 1);
}

static PyObject *n_pick(NSearch *n, PyObject *arg, int owed) {
    st_t state;
    if (st_from(arg, &state) < 0) return NULL;
    entry_t *e = table_find(&n->memo[owed], &state, 0);
    if (!e || e->val < 0) Py_RETURN_NONE;
    if (e->pick == DISCARD) return PyLong_FromLong(DISCARD);
    PyObject *d = PyList_GetItem(n->picks, e->pick);
    Py_XINCREF(d);
    return d;
}

static PyObject *NSearch_pick(NSearch *n, PyObject *arg) { return n_pick(n, arg, 0); }
static PyObject *NSearch_pick_d(NSearch *n, PyObject *arg) { return n_pick(n, arg, 1); }

static PyObject *n_forget(NSearch *n, PyObject *arg, int owed) {
    st_t state;
    if (st_from(arg, &state) < 0) return NULL;
    entry_t *e = table_find(&n->memo[owed], &state, 0);
    if (e) e->val = -1, e->pick = 0; /* a lower bound of 0: as good as no note */
    Py_RETURN_NONE;
}

static PyObject *NSearch_forget(NSearch *n, PyObject *arg) { return n_forget(n, arg, 0); }
static PyObject *NSearch_forget_d(NSearch *n, PyObject *arg) { return n_forget(n, arg, 1); }

static PyObject *NSearch_size(NSearch *n, PyObject *unused) {
    return PyLong_FromSize_t(n->memo[0].n);
}

static PyObject *NSearch_clear(NSearch *n, PyObject *unused) {
    table_clear(&n->memo[0]);
    table_clear(&n->memo[1]);
    PyDict_Clear(n->ids);
    if (PyList_SetSlice(n->picks, 1, PyList_GET_SIZE(n->picks), NULL) < 0) return NULL;
    Py_CLEAR(n->loaded);
    Py_RETURN_NONE;
}

static PyMethodDef NSearch_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))NSearch_solve, METH_FASTCALL,
     "solve(state, budget, cands): the fewest points (see natural._make_solver)."},
    {"solve_d", (PyCFunction)(void (*)(void))NSearch_solve_d, METH_FASTCALL,
     "solve_d(state, budget, cands): the same with a discard owed."},
    {"pick", (PyCFunction)NSearch_pick, METH_O, "The first best move from a state, or None."},
    {"pick_d", (PyCFunction)NSearch_pick_d, METH_O, "The same with a discard owed."},
    {"forget", (PyCFunction)NSearch_forget, METH_O, "Drop a state's note."},
    {"forget_d", (PyCFunction)NSearch_forget_d, METH_O, "The same with a discard owed."},
    {"size", (PyCFunction)NSearch_size, METH_NOARGS, "States noted (no discard owed)."},
    {"clear", (PyCFunction)NSearch_clear, METH_NOARGS, "Forget every note."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject NSearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "payme.solver._core.NSearch",
    .tp_basicsize = sizeof(NSearch),
    .tp_dealloc = (destructor)NSearch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The lean search of hands without wild cards (payme.solver.natural, compiled).",
    .tp_methods = NSearch_methods,
    .tp_new = NSearch_new,
};

/* ---------------------------------------------------------------------------------------
 * Kept: payme.game.expert.Outlook._kept_of in C, the same floats.
 *
 * What a hand of dealt + 1 cards is worth when it throws the deadwood card whose loss leaves
 * the best hand, from its best layout's code (scored_code(points, deadwood's indexes)).
 * Every float is worked out by the same operations in the same order as the Python (IEEE
 * doubles, no multiply-add fused: see the pragmas), so the answers are equal, not close.
 * An Outlook makes one for its unseen cards and asks it of many codes. */

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#define KINDS 64

typedef struct {
    PyObject_HEAD
    int n_kinds;
    int64_t points[KINDS];      /* the points each card scores in the deadwood */
    char natural[KINDS];        /* a rank and not an unseen wild kind (Outlook._natural) */
    int64_t counts[KINDS];      /* copies unseen */
    char wild[KINDS];           /* wild and unseen */
    char related[KINDS * KINDS];
    int64_t total;
    double wild_share, hazard, pair_weight;
    PyObject *needs;            /* needs(a, b): the indexes of the cards completing a pair */
    int32_t n_need[KINDS * KINDS]; /* the unseen natural cards completing a pair, -1 unknown,
                                      -2 none needed (an empty need) */
} Kept;

static void Kept_dealloc(Kept *k) {
    Py_XDECREF(k->needs);
    Py_TYPE(k)->tp_free((PyObject *)k);
}

/* Kept(points, natural, counts, wild, related, total, wild_share, hazard, pair_weight,
 * needs): by card index, the points, whether natural, the copies unseen, whether wild and
 * unseen; related, a bytes of n * n (a pair or a near-run); needs(a, b) a function. */
static PyObject *Kept_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    PyObject *points, *natural, *counts, *wild, *related, *needs;
    long long total;
    double wild_share, hazard, pair_weight;
    if (!PyArg_ParseTuple(args, "OOOOSLdddO", &points, &natural, &counts, &wild, &related,
                          &total, &wild_share, &hazard, &pair_weight, &needs))
        return NULL;
    Py_ssize_t n = PySequence_Size(points);
    if (n < 0) return NULL;
    if (n > KINDS || PyBytes_GET_SIZE(related) != n * n) {
        PyErr_SetString(PyExc_ValueError, "Kept: at most 64 kinds, related n * n");
        return NULL;
    }
    Kept *k = (Kept *)type->tp_alloc(type, 0);
    if (!k) return NULL;
    k->n_kinds = (int)n;
    int64_t buf[KINDS];
    if (int_list(points, k->points, n, "Kept: points") < 0 ||
        int_list(counts, k->counts, n, "Kept: counts") < 0 ||
        int_list(natural, buf, n, "Kept: natural") < 0)
        goto bad;
    for (int i = 0; i < n; i++) k->natural[i] = buf[i] != 0;
    if (int_list(wild, buf, n, "Kept: wild") < 0) goto bad;
    for (int i = 0; i < n; i++) k->wild[i] = buf[i] != 0;
    memcpy(k->related, PyBytes_AS_STRING(related), (size_t)(n * n));
    k->total = total;
    k->wild_share = wild_share;
    k->hazard = hazard;
    k->pair_weight = pair_weight;
    Py_INCREF(needs);
    k->needs = needs;
    for (int i = 0; i < KINDS * KINDS; i++) k->n_need[i] = -1;
    return (PyObject *)k;
bad:
    Py_DECREF(k);
    return NULL;
}

/* needs(a, b) of the last needs function asked, by pair (a * KINDS + b): the rule set's
 * answers, the same for every Kept of a game (each would otherwise call it again). */
static PyObject *needs_of = NULL;
static PyObject *needs_known[KINDS * KINDS];

/* The unseen natural (not wild) cards completing the pair a, b (sum(counts[c] for c in
 * needs(a, b) if not wild[c])); -2 when needs(a, b) is empty; -3 with an exception set. */
static int64_t kept_need(Kept *k, int a, int b) {
    int key = a * k->n_kinds + b;
    if (k->n_need[key] != -1) return k->n_need[key];
    if (needs_of != k->needs) {
        for (int i = 0; i < KINDS * KINDS; i++) Py_CLEAR(needs_known[i]);
        Py_XSETREF(needs_of, Py_NewRef(k->needs));
    }
    PyObject *f = needs_known[a * KINDS + b];
    if (!f) {
        PyObject *got = PyObject_CallFunction(k->needs, "ii", a, b);
        if (!got) return -3;
        f = PySequence_Fast(got, "Kept: needs");
        Py_DECREF(got);
        if (!f) return -3;
        /* Another Kept may have asked it meanwhile (the call may let another thread in). */
        if (needs_of == k->needs && !needs_known[a * KINDS + b])
            needs_known[a * KINDS + b] = Py_NewRef(f);
    } else {
        Py_INCREF(f);
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(f);
    int64_t n = 0;
    for (Py_ssize_t i = 0; i < m; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return -3;
        }
        if (c < 0 || c >= k->n_kinds) {
            Py_DECREF(f);
            PyErr_SetString(PyExc_ValueError, "Kept: needs gave a card out of range");
            return -3;
        }
        if (!k->wild[c]) n += k->counts[c];
    }
    Py_DECREF(f);
    if (!m) n = -2;
    k->n_need[key] = (int32_t)n;
    return n;
}

/* Outlook._out_chance of a deadwood of 0 to 2 cards; -1.0 with an exception set. */
static double kept_out_chance(Kept *k, const unsigned char *dead, int n) {
    if (!n) return 1.0;
    if (n > 2 || !k->total) return 0.0;
    double wilds = k->wild_share;
    if (n == 1) return wilds;
    int a = dead[0], b = dead[1];
    if (!(k->natural[a] && k->natural[b])) return wilds;
    int64_t need = kept_need(k, a, b);
    if (need == -3) return -1.0;
    if (need == -2) need = 0;
    return wilds + (double)need / (double)k->total;
}

/* Outlook._pair_saving of the cards a, b; -1.0 with an exception set. */
static double kept_pair_saving(Kept *k, int a, int b) {
    int64_t need = kept_need(k, a, b);
    if (need == -3) return -1.0;
    double share = k->total && need != -2 ? (double)need / (double)k->total + k->wild_share
                                         : 0.0;
    return share * (double)(k->points[a] + k->points[b]);
}

/* kept(code): Outlook._kept_of(code), for a code of two or more deadwood cards. */
static PyObject *Kept_kept(Kept *k, PyObject *code) {
    if (!PyBytes_Check(code) || PyBytes_GET_SIZE(code) < 4 || PyBytes_GET_SIZE(code) > 66) {
        PyErr_SetString(PyExc_ValueError, "kept(code): two points bytes and 2 to 64 cards");
        return NULL;
    }
    const unsigned char *c = (const unsigned char *)PyBytes_AS_STRING(code);
    int n = (int)PyBytes_GET_SIZE(code) - 2;
    const unsigned char *dead = c + 2;
    for (int i = 0; i < n; i++)
        if (dead[i] >= k->n_kinds) {
            PyErr_SetString(PyExc_ValueError, "kept(code): a card out of range");
            return NULL;
        }
    int64_t pts = (int64_t)c[0] << 8 | c[1];
    double best = Py_HUGE_VAL;
    if (n <= 3) {
        double stay = 1.0 - k->hazard;
        unsigned char rest[2];
        for (int j = 0; j < n; j++) {
            if (j && dead[j] == dead[j - 1]) continue; /* a second copy (sorted) */
            int64_t left = pts - k->points[dead[j]];
            double value = 0.0;
            if (left) {
                int m = 0;
                for (int x = 0; x < n; x++)
                    if (x != j) rest[m++] = dead[x];
                double out = kept_out_chance(k, rest, m);
                if (out == -1.0 && PyErr_Occurred()) return NULL;
                value = (double)left * (1.0 - stay * out);
            }
            if (value < best) best = value;
        }
        return PyFloat_FromDouble(best);
    }
    /* The pairs of the deadwood (natural cards, related), in pair_savings' order, each
     * with its places and term. */
    double factor = (1.0 - k->hazard) * k->pair_weight;
    int pa[2080], pb[2080];
    double term[2080];
    int n_pairs = 0, places[64], n_places = 0;
    for (int x = 0; x < n; x++)
        if (k->natural[dead[x]]) places[n_places++] = x;
    for (int x = 0; x < n_places; x++) {
        int row = dead[places[x]] * k->n_kinds;
        for (int y = x + 1; y < n_places; y++) {
            if (!k->related[row + dead[places[y]]]) continue;
            double t = kept_pair_saving(k, dead[places[x]], dead[places[y]]);
            if (t == -1.0 && PyErr_Occurred()) return NULL;
            pa[n_pairs] = places[x];
            pb[n_pairs] = places[y];
            term[n_pairs++] = t;
        }
    }
    for (int j = 0; j < n; j++) {
        if (j && dead[j] == dead[j - 1]) continue; /* a second copy (sorted) */
        int64_t left = pts - k->points[dead[j]];
        double value = 0.0;
        if (left) {
            double saved = 0.0;
            for (int t = 0; t < n_pairs; t++)
                if (pa[t] != j && pb[t] != j) saved += term[t];
            double v = (double)left - factor * saved;
            value = v > 0.0 ? v : 0.0;
        }
        if (value < best) best = value;
    }
    return PyFloat_FromDouble(best);
}

/* weigh(codes, counts, scale, expect, outs, kepts): Outlook._draw's sum over the cards
 * tried, the same floats: for each best layout's code (of the hand with a card tried) and
 * that card's copies n, value = 0.0 for one deadwood card or none, else kepts[code] (kept()
 * when not there, put there); outs += n * scale when value is 0.0; expect += n * scale *
 * value.  (expect, outs). */
static PyObject *Kept_weigh(Kept *k, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6 || !PyList_Check(args[0]) || !PyList_Check(args[1]) ||
        PyList_GET_SIZE(args[0]) != PyList_GET_SIZE(args[1]) || !PyDict_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "weigh(codes, counts, scale, expect, outs, kepts): two lists alike");
        return NULL;
    }
    double scale = PyFloat_AsDouble(args[2]), expect = PyFloat_AsDouble(args[3]),
           outs = PyFloat_AsDouble(args[4]);
    if (PyErr_Occurred()) return NULL;
    PyObject *kepts = args[5];
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(args[0]); i++) {
        PyObject *code = PyList_GET_ITEM(args[0], i);
        long long n = PyLong_AsLongLong(PyList_GET_ITEM(args[1], i));
        if (n == -1 && PyErr_Occurred()) return NULL;
        if (!PyBytes_Check(code)) {
            PyErr_SetString(PyExc_TypeError, "weigh: codes are bytes");
            return NULL;
        }
        double value = 0.0;
        if (PyBytes_GET_SIZE(code) > 3) {
            PyObject *known = PyDict_GetItemWithError(kepts, code);
            if (known) {
                value = PyFloat_AsDouble(known);
                if (value == -1.0 && PyErr_Occurred()) return NULL;
            } else {
                if (PyErr_Occurred()) return NULL;
                PyObject *found = Kept_kept(k, code);
                if (!found) return NULL;
                value = PyFloat_AS_DOUBLE(found);
                int put = PyDict_SetItem(kepts, code, found);
                Py_DECREF(found);
                if (put < 0) return NULL;
            }
        }
        double ns = (double)n * scale;
        if (value == 0.0) outs += ns;
        expect += ns * value;
    }
    return Py_BuildValue("(dd)", expect, outs);
}

static PyMethodDef Kept_methods[] = {
    {"kept", (PyCFunction)Kept_kept, METH_O,
     "kept(code): payme.game.expert.Outlook._kept_of(code), the same float."},
    {"weigh", (PyCFunction)(void (*)(void))Kept_weigh, METH_FASTCALL,
     "weigh(codes, counts, scale, expect, outs, kepts): Outlook._draw's sum over the cards "
     "tried: (expect, outs)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KeptType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "payme.solver._core.Kept",
    .tp_basicsize = sizeof(Kept),
    .tp_dealloc = (destructor)Kept_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "What a hand is worth after its best throw, over a seat's unseen cards.",
    .tp_methods = Kept_methods,
    .tp_new = Kept_new,
};

/* A digest of this file, given by setup.py: payme.solver.backend refuses a build whose
   digest differs from the _core.c beside it (an out-of-date build). */
#ifndef PAYME_CORE_SOURCE
#define PAYME_CORE_SOURCE ""
#endif

static struct PyModuleDef coremodule = {
    PyModuleDef_HEAD_INIT, "_core",
    "The compiled core of payme's hand solver (see payme/solver/_core.c).", -1, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&FieldsType) < 0 || PyType_Ready(&GSearchType) < 0 ||
        PyType_Ready(&NSearchType) < 0 || PyType_Ready(&HandsType) < 0 ||
        PyType_Ready(&KeptType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&coremodule);
    if (!m) return NULL;
    Py_INCREF(&FieldsType);
    Py_INCREF(&GSearchType);
    Py_INCREF(&NSearchType);
    Py_INCREF(&HandsType);
    Py_INCREF(&KeptType);
    if (PyModule_AddObject(m, "Fields", (PyObject *)&FieldsType) < 0 ||
        PyModule_AddObject(m, "GSearch", (PyObject *)&GSearchType) < 0 ||
        PyModule_AddObject(m, "NSearch", (PyObject *)&NSearchType) < 0 ||
        PyModule_AddObject(m, "Hands", (PyObject *)&HandsType) < 0 ||
        PyModule_AddObject(m, "Kept", (PyObject *)&KeptType) < 0 ||
        PyModule_AddIntConstant(m, "STATE_BITS", NW * 64) < 0 ||
        PyModule_AddStringConstant(m, "SOURCE", PAYME_CORE_SOURCE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
