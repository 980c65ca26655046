use std::process::ExitCode;

fn main() -> ExitCode {
    tablut_bot::cli::main()
}
