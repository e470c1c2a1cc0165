//! Judge-format parsers and solvers behind the `grundy` command.
