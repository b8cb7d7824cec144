// SPDX-License-Identifier: GPL-2.0
#include "unit.h"

int main(void)
{
	int failed = 0;

	failed += test_apitab();
	failed += test_util();
	failed += test_pool();
	failed += test_flow();
	failed += test_tree();
	failed += test_extract();
	failed += test_readers();
	return failed ? 1 : 0;
}
