# rtlock - see README.md.  "make help" lists the targets.
LLVM_CONFIG ?= $(shell command -v llvm-config-14 || command -v llvm-config)
LLVM_INC := $(shell $(LLVM_CONFIG) --includedir 2>/dev/null)
LLVM_LIB := $(shell $(LLVM_CONFIG) --libdir 2>/dev/null)

CC ?= cc
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -MMD -MP
CPPFLAGS += -I$(LLVM_INC) -Itool
LDLIBS += -L$(LLVM_LIB) -Wl,-rpath,$(LLVM_LIB) -lclang -ljansson -lxxhash
ifeq ($(SAN),1)
CC := clang
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

TOOL_SRC := $(sort $(wildcard tool/*.c tool/rules/*.c))
TOOL_OBJ := $(TOOL_SRC:.c=.o)
LIB_OBJ := $(filter-out tool/rtlock.o,$(TOOL_OBJ))

all: tool/rtlock

tool/rtlock: $(TOOL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

clean:
	rm -f tool/*.o tool/*.d tool/rules/*.o tool/rules/*.d tool/rtlock
	rm -f tests/unit/*.o tests/unit/*.d tests/unit/run-unit

-include $(TOOL_OBJ:.o=.d)
.PHONY: all clean

# ---- tests ----
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
UNIT_OBJ := $(UNIT_SRC:.c=.o)
tests/unit/%.o: CPPFLAGS += -Itests/unit

tests/unit/run-unit: $(UNIT_OBJ) $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

unit: tests/unit/run-unit
	tests/unit/run-unit

-include $(UNIT_OBJ:.o=.d)

E2E_SRC := $(sort $(wildcard tests/e2e/*.c))
E2E_OBJ := $(E2E_SRC:.c=.o)
tests/e2e/%.o: CPPFLAGS += -Itests/e2e

tests/e2e/run-e2e: $(E2E_OBJ) tool/util.o tool/hash.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

e2e: tests/e2e/run-e2e tool/rtlock
	tests/e2e/run-e2e

-include $(E2E_OBJ:.o=.d)

# ---- what a newcomer runs ----
# Debian packages: build, tests, and kbuild's "prepare" of real trees.
DEB_PKGS := gcc make clang-14 llvm-14 libclang-14-dev libclang-rt-14-dev \
	libjansson-dev libxxhash-dev uthash-dev libcmocka-dev coccinelle git \
	flex bison bc libelf-dev libssl-dev

deps:
	@missing=$$(dpkg-query -W -f='$${Package} $${Status}\n' $(DEB_PKGS) 2>/dev/null | \
		awk '$$NF == "installed" { ok[$$1] = 1 } END { n = split("$(DEB_PKGS)", p, " "); \
		for (i = 1; i <= n; i++) if (!ok[p[i]]) printf "%s ", p[i] }'); \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "make deps: installing $$missing"; \
			apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
		else \
			echo "make deps: missing packages; run: sudo apt-get install $$missing" >&2; exit 1; \
		fi; \
	fi

DEMO_OUT ?= rtlock-out/demo
demo: deps tool/rtlock
	tool/rtlock scan -C $(DEMO_OUT)/cache -o $(DEMO_OUT) tests/fixtures/linux-mini

test: deps tool/rtlock tests/unit/run-unit tests/e2e/run-e2e
	tests/unit/run-unit
	tests/e2e/run-e2e
	@echo "all test suites passed"

.PHONY: deps demo test unit e2e
