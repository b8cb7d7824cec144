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
