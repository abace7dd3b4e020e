"""The offline verifier: judges a recorded trace against a milestone DAG with composable checkers."""
