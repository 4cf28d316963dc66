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
} table_t;

static void table_free(table_t *t) {
    PyMem_Free(t->slots);
    t->slots = NULL;
    t->cap = t->n = 0;
}

static inline entry_t *table_find(const table_t *t, const st_t *k, int32_t b) {
    if (!t->cap) return NULL;
    size_t m = t->cap - 1, i = st_hash(k, b) & m;
    for (;;) {
        entry_t *e = &t->slots[i];
        if (!e->used) return NULL;
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
        if (!e->used) continue;
        size_t i = st_hash(&e->key, e->b) & (cap - 1);
        while (slots[i].used) i = (i + 1) & (cap - 1);
        slots[i] = *e;
    }
    PyMem_Free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 0;
}

/* The entry of (k, b), made (unused fields zero) when missing; NULL when out of memory. */
static entry_t *table_put(table_t *t, const st_t *k, int32_t b) {
    if (2 * (t->n + 1) > t->cap && table_grow(t) < 0) return NULL;
    size_t m = t->cap - 1, i = st_hash(k, b) & m;
    for (;;) {
        entry_t *e = &t->slots[i];
        if (!e->used) {
            e->used = 1;
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

static void table_clear(table_t *t) {
    if (t->cap) memset(t->slots, 0, t->cap * sizeof(entry_t));
    t->n = 0;
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
    const shape_t *s = &g->s;
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

static PyMethodDef GSearch_methods[] = {
    {"value", (PyCFunction)(void (*)(void))GSearch_value, METH_FASTCALL,
     "value(state, b, d, budget=INF): the fewest points from a state."},
    {"solve", (PyCFunction)(void (*)(void))GSearch_solve, METH_FASTCALL,
     "solve(state, b, budget=INF): the same with no discard owed."},
    {"entry", (PyCFunction)(void (*)(void))GSearch_entry, METH_FASTCALL,
     "entry(state, b, d): the memo's note on a state, or None."},
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

static struct PyModuleDef coremodule = {
    PyModuleDef_HEAD_INIT, "_core",
    "The compiled core of payme's hand solver (see payme/solver/_core.c).", -1, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&FieldsType) < 0 || PyType_Ready(&GSearchType) < 0 ||
        PyType_Ready(&NSearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&coremodule);
    if (!m) return NULL;
    Py_INCREF(&FieldsType);
    Py_INCREF(&GSearchType);
    Py_INCREF(&NSearchType);
    if (PyModule_AddObject(m, "Fields", (PyObject *)&FieldsType) < 0 ||
        PyModule_AddObject(m, "GSearch", (PyObject *)&GSearchType) < 0 ||
        PyModule_AddObject(m, "NSearch", (PyObject *)&NSearchType) < 0 ||
        PyModule_AddIntConstant(m, "STATE_BITS", NW * 64) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
