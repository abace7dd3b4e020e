# droidpilot — the two commands a newcomer needs are `make demo` and `make test`.
# Both create .venv on first use; `make venv` only creates it.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Distribution packages the tests and the perception/browser parts need, and the subset the demo needs
# (SimPhone's fonts, its icon font included; the other icon families of src/droidpilot/iconfamilies.yaml,
# which the icon locator matches real apps' icons against). Installed as root via apt-get; as another user the targets
# say what is missing.
ICON_FAMILY_PACKAGES := fonts-materialdesignicons-webfont fonts-font-awesome fonts-fork-awesome \
  fonts-elusive-icons
SYSTEM_PACKAGES := tesseract-ocr tesseract-ocr-chi-sim fonts-wqy-microhei fonts-dejavu-core \
  fonts-material-design-icons-iconfont $(ICON_FAMILY_PACKAGES) adb chromium
DEMO_PACKAGES := fonts-wqy-microhei fonts-dejavu-core fonts-material-design-icons-iconfont $(ICON_FAMILY_PACKAGES)

# $(call install_missing,PACKAGES,WHAT NEEDS THEM,TARGET THAT INSTALLS THEM)
define install_missing
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing distribution packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else \
	    echo "warning: missing distribution packages:$$missing (run 'sudo make $(3)'); $(2) will fail" >&2; \
	  fi; \
	fi
endef

.PHONY: venv demo test fuzz lint system-deps demo-deps lock clean

venv: $(STAMP)

# The editable install leaves droidpilot's own modules uncompiled: compiling them once spares every cold
# command compiling them again where PYTHONDONTWRITEBYTECODE is set (container images often set it).
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade "pip>=24"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[dev,ray,studio,gym,dm-env]'
	$(BIN)/python -m compileall -q src >/dev/null
	touch $(STAMP)

system-deps:
	$(call install_missing,$(SYSTEM_PACKAGES),tests needing them,system-deps)

demo-deps:
	$(call install_missing,$(DEMO_PACKAGES),the demo,demo-deps)

demo: venv demo-deps
	$(BIN)/droidpilot demo

lint: venv
	$(BIN)/ruff check src tests benchmarks examples

# Hypothesis policy: `make test` (and CI, which runs it) uses the derandomized `ci` profile registered in
# tests/support/hypothesis_profiles.py, so each run tries the same examples; `make fuzz` uses `fuzz`:
# fresh seeds and 20x the examples, for the property tests only. Keep what fuzz finds as @example(...).
# Tests run on every core, up to four (pytest-xdist); a test file stays on one worker (--dist loadfile), so
# its module fixtures (a played world, a Ray cluster, a studio server) are built once. TEST_WORKERS=0 runs
# in this process, as does `pytest` by hand without -n.
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); [ $$n -gt 4 ] && n=4; echo $$n)
test: venv system-deps lint
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

FUZZ_TESTS = $(shell grep -rl --include='test_*.py' '^from hypothesis' tests 2>/dev/null)
fuzz: venv
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest $(FUZZ_TESTS)

# Refresh the pinned versions CI installs (run after changing dependencies in pyproject.toml).
lock:
	rm -rf /tmp/droidpilot-lock && $(PYTHON) -m venv /tmp/droidpilot-lock
	/tmp/droidpilot-lock/bin/pip install --quiet --upgrade "pip>=24"
	/tmp/droidpilot-lock/bin/pip install --quiet -e '.[dev,ray,studio,gym,dm-env]'
	/tmp/droidpilot-lock/bin/pip freeze --exclude-editable | grep -v '^-e' > constraints.txt

clean:
	rm -rf $(VENV) build dist src/*.egg-info
