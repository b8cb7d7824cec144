// SPDX-License-Identifier: GPL-2.0
#include "e2e.h"

int main(void)
{
	int failed = 0;

	failed += test_scan();
	failed += test_bad_input();
	failed += test_classify();
	failed += test_convert();
	failed += test_branch();
	return failed ? 1 : 0;
}
