# The latency fork: topic branches of Debian's linux-source 6.1 kept as
# patch series in series/.  See README.md.
#
#   make check          build the tree and branches, check every commit
#   make test           the tooling's own tests
#
# Generated files go to $(BUILD) (default: ./build, git-ignored); the
# kernel tree to $(KTREE) (default: $(BUILD)/linux).

BUILD ?= $(CURDIR)/build
KTREE ?= $(BUILD)/linux
export BUILD KTREE

S := scripts

.PHONY: all help deps tree branches export send pull-request check report kconfig \
	test test-unit bench figures forget clean distclean

all: help

## make help: this list (the "## make" lines of the Makefile)
help:
	@sed -n 's/^## make /  make /p' $(firstword $(MAKEFILE_LIST))

## make deps: install every Debian package the project needs (apt-get)
deps:
	$(S)/deps

## make tree: import linux-source as one commit tagged 'base' (idempotent)
tree:
	$(S)/mktree

## make branches: topic branches from series/, then for-next
branches: tree
	$(S)/mkbranches

## make export [TOPIC=t]: series/<topic>/ from the branches, with b4
export:
	$(S)/export $(TOPIC)

## make send TOPIC=t [SEND=1]: b4 send (a dry run unless SEND=1)
send:
	@test -n "$(TOPIC)" || { echo "make send: TOPIC= is required" >&2; exit 2; }
	$(S)/send $(TOPIC)

## make pull-request TOPIC=t [URL=u]: git request-pull for the topic
pull-request:
	@test -n "$(TOPIC)" || { echo "make pull-request: TOPIC= is required" >&2; exit 2; }
	$(S)/pull-request $(TOPIC) $(URL)

## make check [TOPIC=t] [ARCH=a] [CHECKS=c] [COMMIT=rev] [TIPS=1] [RETEST=1]: every check on every commit
check: deps branches
	checks/run $(if $(TOPIC),--topic $(TOPIC)) $(if $(ARCH),--arch $(ARCH)) \
		$(if $(CHECKS),--checks "$(CHECKS)") $(if $(COMMIT),--commit $(COMMIT)) \
		$(if $(filter-out 0,$(TIPS)),--tips) $(if $(filter-out 0,$(RETEST)),--retest)

## make kconfig: the kconfig stage of every config of every topic tip and for-next (no build)
kconfig: branches
	$(S)/kconfig-all

## make report: the matrix of stored results (markdown, TSV, KCIDB JSON)
report:
	checks/report

## make forget COMMIT=rev: drop every stored result of one commit
forget:
	@test -n "$(COMMIT)" || { echo "make forget: COMMIT= is required" >&2; exit 2; }
	checks/store forget $(COMMIT)

## make test: the tooling's own tests (tests/*.sh; ~22 min, some build kernels)
test:
	tests/run

## make test-unit: the tests that need no kernel tree and no build (seconds)
test-unit:
	tests/run --unit

## make clean: remove the work trees and send state under $(BUILD) (results kept)
clean:
	rm -rf $(BUILD)/work $(BUILD)/send

## make distclean: remove $(BUILD) entirely (tree, builds, results)
distclean:
	rm -rf $(BUILD)

## make figures [WHAT=softirq|cost|icount|console|consoleloss|zap|zaptest|zapcost] [ARCH=a]: the measured tables of the cover letters
figures:
	$(S)/figures $(or $(WHAT),all) $(ARCH)

## make bench [TOPIC=t] [ARCH=a]: cold vs cached vs amended vs naive check times
bench:
	checks/bench $(or $(TOPIC),preempt-timing) $(ARCH)
