"""What a run of the site checks found: named checks that pass or fail, and the figures worth reading."""


class Report:
    def __init__(self):
        self.failures = []  # (check name, detail)
        self.passed = 0
        self.figures = []  # (label, text)

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"PASS {name}")
        else:
            self.failures.append((name, detail))
            print(f"FAIL {name}: {detail}")

    def figure(self, label, text):
        self.figures.append((label, text))
        print(f"  {label}: {text}")

    def failed(self, name):
        """Whether a check whose name starts with `name` failed."""
        return any(check.startswith(name) for check, _ in self.failures)

    def print_figures(self):
        print("\nFigures:")
        for label, text in self.figures:
            print(f"  {label}: {text}")

    def print_summary(self):
        # The plain closing line that CI reads: N passed, N failed.
        print(f"check-site: {self.passed} passed, {len(self.failures)} failed")
