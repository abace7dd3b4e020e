"""The benchmark: suites of tasks run on SimPhone or real phones, verified and reported."""
