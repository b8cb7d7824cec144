// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "unit.h"
#include "flow.h"
#include "prog.h"

/* Load functions given as {"id": ..., "ir": ...} JSON text. */
static void load(struct prog *p, const char *funcs)
{
	json_error_t err;
	json_t *f = json_pack("{sss[]so}", "file", "t.c", "locks", "funcs",
			      json_loads(funcs, 0, &err));

	assert_non_null(json_object_get(f, "funcs"));
	prog_add_facts(p, f);
	json_decref(f);
}

struct seen {
	char held[8][64];	/* held targets at each lock event, joined */
	char dropped[8][64];	/* the caller's locks released before it */
	int irq[8], n;
	bool unreached[8];
};

static int record(const struct flow_event *e, void *ctx)
{
	struct seen *s = ctx;
	unsigned i;

	if (strcmp(e->kind, "lock") || s->n >= 8)
		return 0;
	s->held[s->n][0] = '\0';
	for (i = 0; i < e->st->nheld; i++) {
		strcat(s->held[s->n], e->st->held[i].target);
		strcat(s->held[s->n], ";");
	}
	s->dropped[s->n][0] = '\0';
	for (i = 0; i < e->st->ndropped; i++) {
		strcat(s->dropped[s->n], e->st->dropped[i]);
		strcat(s->dropped[s->n], ";");
	}
	s->unreached[s->n] = e->st->unreached;
	s->irq[s->n++] = e->st->irq;
	return 0;
}

static struct seen run(struct prog *p, const char *fn)
{
	struct seen s = { 0 };

	flow_run(p, prog_func(p, fn), record, &s);
	return s;
}

static void wrappers(void **state)
{
	struct prog p;
	struct seen s;

	(void)state;
	prog_init(&p);
	load(&p, "[{\"id\": \"foo_lock\", \"ir\": [[\"lock\", 1, \"acquire\", "
		 "\"spin_lock\", \"P:foo_lock#0\", \"a\"]]},"
		 "{\"id\": \"foo_unlock\", \"ir\": [[\"lock\", 2, \"release\","
		 "\"spin_unlock\", \"P:foo_unlock#0\", \"a\"]]},"
		 "{\"id\": \"user\", \"ir\": ["
		 "[\"call\", 3, \"foo_lock\", [\"L:struct foo::lock\"]],"
		 "[\"lock\", 4, \"acquire\", \"spin_lock\", \"L:B\", \"a\"],"
		 "[\"lock\", 5, \"release\", \"spin_unlock\", \"L:B\", \"a\"],"
		 "[\"call\", 6, \"foo_unlock\", [\"L:struct foo::lock\"]],"
		 "[\"lock\", 7, \"acquire\", \"spin_lock\", \"L:C\", \"a\"]]}]");
	prog_link(&p);
	assert_int_equal(prog_func(&p, "foo_lock")->acquires.n, 1);
	assert_int_equal(prog_func(&p, "foo_unlock")->releases.n, 1);
	s = run(&p, "user");
	assert_int_equal(s.n, 3);
	assert_string_equal(s.held[0], "L:struct foo::lock;");
	assert_string_equal(s.held[2], "");
	prog_free(&p);
}

/* A do { } while (0) body runs: its unlock is done, not "maybe done". */
static void do_once(void **state)
{
	struct prog p;
	struct seen s;

	(void)state;
	prog_init(&p);
	load(&p, "[{\"id\": \"f\", \"ir\": ["
		 "[\"lock\", 1, \"acquire\", \"spin_lock\", \"L:A\", \"a\"],"
		 "[\"do\", [[\"lock\", 2, \"release\", \"spin_unlock\", \"L:A\","
		 " \"a\"]]],"
		 "[\"lock\", 3, \"acquire\", \"spin_lock\", \"L:B\", \"a\"],"
		 "[\"lock\", 4, \"acquire\", \"spin_lock\", \"L:A\", \"a\"],"
		 "[\"loop\", [[\"lock\", 5, \"release\", \"spin_unlock\", \"L:A\","
		 " \"a\"]]],"
		 "[\"lock\", 6, \"acquire\", \"spin_lock\", \"L:C\", \"a\"]]}]");
	prog_link(&p);
	s = run(&p, "f");
	assert_int_equal(s.n, 6);
	assert_string_equal(s.held[2], "");	/* released in the do body */
	assert_string_equal(s.held[5], "L:B;L:A;"); /* a loop may not run */
	prog_free(&p);
}

/*
 * A function entered with its caller's lock held that releases it: what
 * follows runs without it, also when the release is in a callee, but not
 * when only one branch released it.
 */
static void callers_lock_dropped(void **state)
{
	struct prog p;
	struct seen s;

	(void)state;
	prog_init(&p);
	load(&p, "[{\"id\": \"unlock_a\", \"ir\": [[\"lock\", 1, \"release\","
		 "\"spin_unlock\", \"L:A\", \"a\"]]},"
		 "{\"id\": \"f\", \"ir\": ["
		 "[\"lock\", 2, \"acquire\", \"spin_lock\", \"L:B\", \"a\"],"
		 "[\"call\", 3, \"unlock_a\", []],"
		 "[\"lock\", 4, \"acquire\", \"spin_lock\", \"L:C\", \"a\"],"
		 "[\"lock\", 5, \"acquire\", \"spin_lock\", \"L:A\", \"a\"],"
		 "[\"if\", [[\"lock\", 6, \"release\", \"spin_unlock\", \"L:D\","
		 " \"a\"]], []],"
		 "[\"lock\", 7, \"acquire\", \"spin_lock\", \"L:E\", \"a\"]]}]");
	prog_link(&p);
	s = run(&p, "f");
	assert_int_equal(s.n, 5);
	assert_string_equal(s.dropped[0], "");
	assert_string_equal(s.dropped[1], "L:A;");	/* after unlock_a() */
	assert_string_equal(s.held[2], "L:B;L:C;");	/* taken again */
	assert_string_equal(s.dropped[4], "L:A;");	/* D: one path only */
	/* an unlock wrapper releases on every path: A, not D */
	assert_true(strset_has(&prog_func(&p, "f")->releases, "L:A"));
	assert_false(strset_has(&prog_func(&p, "f")->releases, "L:D"));
	prog_free(&p);
}

/*
 * for (;;) { lock; if (ok) return; unlock; }: returns holding the lock
 * (lock_timer_base()); a continue goes round again, a break leaves.
 */
static void forever_loop(void **state)
{
	struct prog p;
	struct seen s;

	(void)state;
	prog_init(&p);
	load(&p, "[{\"id\": \"lock_base\", \"ir\": [[\"forever\", ["
		 "[\"lock\", 1, \"acquire\", \"spin_lock\", \"L:A\", \"a\"],"
		 "[\"if\", [[\"ret\"]], []],"
		 "[\"lock\", 2, \"release\", \"spin_unlock\", \"L:A\", \"a\"],"
		 "[\"if\", [[\"cont\"]], []]]]]},"
		 "{\"id\": \"f\", \"ir\": ["
		 "[\"call\", 3, \"lock_base\", []],"
		 "[\"lock\", 4, \"acquire\", \"spin_lock\", \"L:B\", \"a\"],"
		 "[\"forever\", [[\"lock\", 5, \"acquire\", \"spin_lock\","
		 " \"L:C\", \"a\"], [\"break\"]]],"
		 "[\"lock\", 6, \"acquire\", \"spin_lock\", \"L:D\", \"a\"]]}]");
	prog_link(&p);
	assert_true(strset_has(&prog_func(&p, "lock_base")->acquires, "L:A"));
	assert_int_equal(prog_func(&p, "lock_base")->releases.n, 0);
	s = run(&p, "f");
	assert_int_equal(s.n, 3);
	assert_string_equal(s.held[0], "L:A;");
	assert_string_equal(s.held[2], "L:A;L:B;L:C;"); /* after the break */
	prog_free(&p);
}

/*
 * Summaries are recomputed each round: h() takes A and calls u(), which
 * drops it; in the first round u() is not known yet, and h() seems to
 * return holding A.  The second round must undo that.
 */
static void summaries_recomputed(void **state)
{
	struct prog p;

	(void)state;
	prog_init(&p);
	load(&p, "[{\"id\": \"g\", \"ir\": [[\"call\", 1, \"h\", []]]},"
		 "{\"id\": \"h\", \"ir\": ["
		 "[\"lock\", 2, \"acquire\", \"spin_lock\", \"L:A\", \"a\"],"
		 "[\"call\", 3, \"u\", []]]},"
		 "{\"id\": \"u\", \"ir\": [[\"lock\", 4, \"release\","
		 "\"spin_unlock\", \"L:A\", \"a\"]]}]");
	prog_link(&p);
	assert_true(strset_has(&prog_func(&p, "u")->releases, "L:A"));
	assert_int_equal(prog_func(&p, "h")->acquires.n, 0);
	assert_int_equal(prog_func(&p, "h")->releases.n, 0);
	assert_int_equal(prog_func(&p, "g")->acquires.n, 0);
	prog_free(&p);
}

/*
 * clk_enable_unlock(): "if (--refcnt) return; spin_unlock(&enable_lock);"
 * releases on one path.  Its caller, which took the lock, holds it after
 * the call on some paths only, so it is no wrapper that returns holding
 * it; the D case of callers_lock_dropped() is the same seen from below.
 */
static void refcounted_unlock(void **state)
{
	struct prog p;
	struct seen s;

	(void)state;
	prog_init(&p);
	load(&p, "[{\"id\": \"unlock_e\", \"ir\": ["
		 "[\"if\", [[\"ret\"]], []],"
		 "[\"lock\", 1, \"release\", \"spin_unlock\", \"L:E\", \"a\"]]},"
		 "{\"id\": \"user\", \"ir\": ["
		 "[\"lock\", 2, \"acquire\", \"spin_lock\", \"L:E\", \"a\"],"
		 "[\"call\", 3, \"unlock_e\", []],"
		 "[\"lock\", 4, \"acquire\", \"spin_lock\", \"L:F\", \"a\"],"
		 "[\"lock\", 5, \"release\", \"spin_unlock\", \"L:F\", \"a\"]]},"
		 "{\"id\": \"top\", \"ir\": ["
		 "[\"call\", 6, \"user\", []],"
		 "[\"lock\", 7, \"acquire\", \"spin_lock\", \"L:G\", \"a\"]]}]");
	prog_link(&p);
	assert_int_equal(prog_func(&p, "unlock_e")->releases.n, 0);
	assert_true(strset_has(&prog_func(&p, "unlock_e")->may_release, "L:E"));
	assert_int_equal(prog_func(&p, "user")->acquires.n, 0);
	assert_int_equal(prog_func(&p, "user")->may_release.n, 0);
	s = run(&p, "user");
	assert_int_equal(s.n, 3);
	assert_string_equal(s.held[1], "L:E;");	/* F: under E, maybe */
	s = run(&p, "top");
	assert_int_equal(s.n, 1);
	assert_string_equal(s.held[0], "");	/* G: not under E */
	prog_free(&p);
}

/*
 * rcu_nocb_lock_irqsave()/rcu_nocb_unlock_irqrestore(): taken on some
 * paths, released on some paths by a callee (here through another one,
 * as rdp_offload_toggle() does): not held after the release.  One held
 * on every path stays "may be held" (refcounted_unlock()).
 */
static void conditional_pair(void **state)
{
	struct prog p;
	struct seen s;

	(void)state;
	prog_init(&p);
	load(&p, "[{\"id\": \"unlock_n\", \"ir\": ["
		 "[\"if\", [[\"lock\", 1, \"release\", \"spin_unlock\", "
		 "\"L:N\", \"a\"]], []]]},"
		 "{\"id\": \"toggle\", \"ir\": ["
		 "[\"call\", 2, \"unlock_n\", []]]},"
		 "{\"id\": \"user\", \"ir\": ["
		 "[\"if\", [[\"lock\", 3, \"acquire\", \"spin_lock\", "
		 "\"L:N\", \"a\"]], []],"
		 "[\"call\", 4, \"toggle\", []],"
		 "[\"lock\", 5, \"acquire\", \"spin_lock\", \"L:O\", \"a\"],"
		 "[\"lock\", 6, \"release\", \"spin_unlock\", \"L:O\", \"a\"]]}]");
	prog_link(&p);
	assert_true(strset_has(&prog_func(&p, "unlock_n")->may_release, "L:N"));
	assert_true(strset_has(&prog_func(&p, "toggle")->may_release, "L:N"));
	s = run(&p, "user");
	assert_int_equal(s.n, 3);
	assert_string_equal(s.held[1], "");	/* O: not under N */
	prog_free(&p);
}

static void control_flow(void **state)
{
	struct prog p;
	struct seen s;

	(void)state;
	prog_init(&p);
	/* lock A; if (err) goto out; lock B; out: unlock A; lock C */
	load(&p, "[{\"id\": \"g\", \"ir\": ["
		 "[\"lock\", 1, \"acquire\", \"spin_lock\", \"L:A\", \"a\"],"
		 "[\"if\", [[\"goto\", \"out\"]], []],"
		 "[\"lock\", 2, \"acquire\", \"spin_lock\", \"L:B\", \"a\"],"
		 "[\"lock\", 3, \"release\", \"spin_unlock\", \"L:B\", \"a\"],"
		 "[\"label\", \"out\"],"
		 "[\"lock\", 4, \"release\", \"spin_unlock\", \"L:A\", \"a\"],"
		 "[\"lock\", 5, \"acquire\", \"spin_lock\", \"L:C\", \"a\"],"
		 "[\"lock\", 6, \"release\", \"spin_unlock\", \"L:C\", \"a\"]]},"
		 /* if (!trylock(A)) return; ... unlock(A): no summary */
		 "{\"id\": \"t\", \"ir\": ["
		 "[\"lock\", 1, \"trylock\", \"spin_trylock\", \"L:A\", \"a\"],"
		 "[\"if\", [[\"ret\"]], []],"
		 "[\"lock\", 2, \"release\", \"spin_unlock\", \"L:A\", \"a\"]]},"
		 /* local_irq_save; lock C; local_irq_restore; lock D */
		 "{\"id\": \"i\", \"ir\": ["
		 "[\"ctx\", 1, \"irq\", 1, \"local_irq_save\"],"
		 "[\"lock\", 2, \"acquire\", \"spin_lock\", \"L:C\", \"a\"],"
		 "[\"lock\", 3, \"release\", \"spin_unlock\", \"L:C\", \"a\"],"
		 "[\"ctx\", 4, \"irq\", -1, \"local_irq_restore\"],"
		 "[\"lock\", 5, \"acquire\", \"spin_lock\", \"L:D\", \"a\"]]},"
		 /* if (dying) { local_irq_disable; do_task_dead(); } lock E */
		 "{\"id\": \"n\", \"ir\": ["
		 "[\"if\", [[\"ctx\", 1, \"irq\", 1, \"local_irq_disable\"],"
		 "[\"call\", 2, \"do_task_dead\"], [\"noret\"]], []],"
		 "[\"lock\", 3, \"acquire\", \"spin_lock\", \"L:E\", \"a\"],"
		 "[\"lock\", 4, \"release\", \"spin_unlock\", \"L:E\", \"a\"]]},"
		 /* return; lock F (unreached); out: lock G (a goto reaches) */
		 "{\"id\": \"u\", \"ir\": ["
		 "[\"if\", [[\"goto\", \"out\"]], []], [\"ret\"],"
		 "[\"lock\", 1, \"acquire\", \"spin_lock\", \"L:F\", \"a\"],"
		 "[\"label\", \"out\"],"
		 "[\"lock\", 2, \"acquire\", \"spin_lock\", \"L:G\", \"a\"]]}]");
	prog_link(&p);
	s = run(&p, "g");
	assert_int_equal(s.n, 6);
	assert_string_equal(s.held[1], "L:A;");	/* B under A */
	assert_string_equal(s.held[3], "L:A;");	/* A at the label */
	assert_string_equal(s.held[4], "");	/* C after A released */
	assert_int_equal(prog_func(&p, "g")->acquires.n, 0);
	assert_int_equal(prog_func(&p, "t")->acquires.n, 0);
	s = run(&p, "i");
	assert_int_equal(s.irq[0], 1);
	assert_int_equal(s.irq[2], 0);
	/* "i" returns holding D on its only path: a wrapper of D */
	assert_int_equal(prog_func(&p, "i")->acquires.n, 1);
	/* the branch that does not return leaves interrupts as they were */
	s = run(&p, "n");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.irq[0], 0);
	assert_false(s.unreached[0]);
	s = run(&p, "u");
	assert_int_equal(s.n, 2);
	assert_true(s.unreached[0]);
	assert_false(s.unreached[1]);
	prog_free(&p);
}

static void resolution(void **state)
{
	struct prog p;
	struct strset ids = { 0 };
	json_error_t err;
	json_t *f;

	(void)state;
	prog_init(&p);
	load(&p, "[{\"id\": \"helper\", \"ir\": []},"
		 "{\"id\": \"get_lock\", \"ret\": \"L:struct page::ptl\", "
		 "\"ir\": []},"
		 "{\"id\": \"a\", \"ir\": [[\"call\", 1, \"helper\", "
		 "[\"L:global:x\"]]]},"
		 "{\"id\": \"b\", \"ir\": [[\"call\", 1, \"helper\", "
		 "[\"P:b#0\"]]]},"
		 "{\"id\": \"c\", \"ir\": [[\"call\", 1, \"b\", "
		 "[\"L:global:y\"]]]}]");
	f = json_loads("{\"file\": \"p.c\", \"ptrs\": [{\"id\": \"struct "
		       "tty::lockp\", \"to\": \"L:struct port::lock\"}]}",
		       0, &err);
	prog_add_facts(&p, f);
	json_decref(f);
	prog_link(&p);
	assert_true(prog_resolve(&p, "P:helper#0", &ids));
	assert_int_equal(ids.n, 2);
	assert_true(strset_has(&ids, "global:x"));
	assert_true(strset_has(&ids, "global:y"));
	strset_free(&ids);
	assert_true(prog_resolve(&p, "R:get_lock", &ids));
	assert_string_equal(ids.v[0], "struct page::ptl");
	strset_free(&ids);
	assert_true(prog_resolve(&p, "F:struct tty::lockp|L:z", &ids));
	assert_int_equal(ids.n, 2);
	strset_free(&ids);
	assert_false(prog_resolve(&p, "U:indirect", &ids));
	assert_false(prog_resolve(&p, "P:nobody#3", &ids));
	strset_free(&ids);
	prog_free(&p);
}

int test_flow(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wrappers),
		cmocka_unit_test(do_once),
		cmocka_unit_test(callers_lock_dropped),
		cmocka_unit_test(forever_loop),
		cmocka_unit_test(refcounted_unlock),
		cmocka_unit_test(conditional_pair),
		cmocka_unit_test(summaries_recomputed),
		cmocka_unit_test(control_flow),
		cmocka_unit_test(resolution),
	};
	return cmocka_run_group_tests_name("flow", tests, NULL, NULL);
}
