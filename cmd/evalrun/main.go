// Command evalrun runs evaluation suites against agents, stores the evidence
// in the shared history tables, compares runs with their baselines and gates
// CI on the result. Run "evalrun --help" for the commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/alecthomas/kong"

	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/internal/proc"
)

// Exit codes (docs/architecture.md, Semantics), the pipeline's.
const (
	exitOK       = eval.ExitOK
	exitFailed   = eval.ExitFailed   // failed or errored checks, or a gated regression
	exitInvalid  = eval.ExitInvalid  // invalid suite, options, configuration or baseline
	exitNotSaved = eval.ExitNotSaved // the run finished but the database save failed; its evidence file was written instead
)

// exitError carries an exit code with an optional message. A nil Err exits
// quietly with Code. It is the pipeline's error, so that an error of
// eval.Run keeps its code up to the exit.
type exitError = eval.Error

// Globals are the flags every command shares, plus the process's streams.
type Globals struct {
	DatabaseURL      string        `name:"database-url" group:"database" env:"DATABASE_URL" placeholder:"URL" help:"Database: postgres://… or sqlite:PATH; also read from $$${env}. Without either, the embedded SQLite file $$XDG_DATA_HOME/agentevals/evaluations.sqlite3 (else ~/.local/share/agentevals/evaluations.sqlite3), created and migrated on first use. PostgreSQL tables are created only by db:migrate. Ignored by validate, schema, checks, init and db:rails-migration."`
	ConnectTimeout   time.Duration `name:"connect-timeout" group:"database" env:"EVALRUN_CONNECT_TIMEOUT" default:"10s" placeholder:"DURATION" help:"Give up connecting to PostgreSQL after this long, the handshake included (a server that accepts and never answers ends here); also $$${env}. 0 means no limit."`
	StatementTimeout time.Duration `name:"statement-timeout" group:"database" env:"EVALRUN_STATEMENT_TIMEOUT" default:"60s" placeholder:"DURATION" help:"Longest a database statement may run or wait for a lock (PostgreSQL statement_timeout and lock_timeout, SQLite busy timeout); also $$${env}. 0 means no limit."`
	SaveWait         time.Duration `name:"save-wait" group:"database" env:"EVALRUN_SAVE_WAIT" default:"2m" placeholder:"DURATION" help:"How long run and db:import keep retrying a save that fails for a transient reason (connection refused or reset, server restarting, serialization failure, lock timeout, SQLite busy), with backoff from 250ms to 10s; also $$${env}. 0 means one attempt. After that, run writes the evidence file and exits 3."`

	Stdout io.Writer `kong:"-"`
	Stderr io.Writer `kong:"-"`

	guard func() (tag string, stop func(), err error) // see guardProcesses
	// signals is how SIGINT and SIGTERM stop the command (run_signals.go).
	signals *signals
}

// CLI is the whole command line.
type CLI struct {
	Globals
	Version kong.VersionFlag `name:"version" help:"Print the version and exit."`

	Init           InitCmd           `cmd:"" help:"Scaffold a runnable suite, an agent stub, a golden set and a CI workflow."`
	Run            RunCmd            `cmd:"" help:"Run a suite against its agent, save the run and gate on the result."`
	Validate       ValidateCmd       `cmd:"" help:"Check a suite file without running it."`
	ScoreTraces    ScoreTracesCmd    `cmd:"" name:"score-traces" help:"Score a window of production traces (a collector's file export) with a monitor's checks, without calling the agent; saved as one run."`
	TraceToSuite   TraceToSuiteCmd   `cmd:"" name:"trace-to-suite" help:"Turn one production case (a saved window's case, or a trace in a file export) into a suite question for review, written to a copy of the suite."`
	Schema         SchemaCmd         `cmd:"" help:"Print the JSON Schema of suite files."`
	Checks         CheckTypesCmd     `cmd:"" help:"List every check type with its params and an example."`
	History        HistoryCmd        `cmd:"" help:"List recent runs."`
	Suite          SuiteCmd          `cmd:"" help:"Work on suite files: export a saved run's definition as a suite."`
	Report         ReportCmd         `cmd:"" help:"Render a run's report (default: the latest run)."`
	Compare        CompareCmd        `cmd:"" help:"Compare two runs of the same definition side by side."`
	Experiment     ExperimentCmd     `cmd:"" help:"Run a suite against several agent variants (one run each) and show the answers side by side."`
	Grid           GridCmd           `cmd:"" help:"Render the grid of an experiment's runs again (text, Markdown, HTML or JSON)."`
	Label          LabelCmd          `cmd:"" help:"Label a run's judge verdicts by hand, the cases worth a person's time first, into a labels file next to the suite (calibrate --labels reads it)."`
	Calibrate      CalibrateCmd      `cmd:"" help:"Measure a judge: agreement with human labels (--labels, Cohen's kappa) or stability when the same answers are judged again (--rejudge N)."`
	Migrate        MigrateCmd        `cmd:"" name:"db:migrate" help:"Create or upgrade the evaluation tables."`
	Import         ImportCmd         `cmd:"" name:"db:import" help:"Save evidence files (from run --save-to, --shard or a failed save) in the database; --merge joins shards."`
	Check          DBCheckCmd        `cmd:"" name:"db:check" help:"Compare the live schema with the contract (exit 0 usable, 2 not)."`
	RailsMigration RailsMigrationCmd `cmd:"" name:"db:rails-migration" help:"Print a Rails migration that creates or upgrades the evaluation tables."`
	Help           HelpCmd           `cmd:"" help:"Show help for evalrun or one of its commands."`
}

// version is the module version of the binary: its tag or pseudo-version
// when built with module information, else "(devel)".
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

func main() {
	if tag := os.Getenv(proc.GuardianEnv); tag != "" {
		proc.Guard(os.Stdin, tag) // this process is a run's guardian (runner/guardian.go)
		return
	}
	os.Exit(runWith(os.Args[1:], os.Stdout, os.Stderr, guardProcesses))
}

// guardProcesses makes evalrun a child subreaper and starts the run's
// guardian, so that no agent process outlives evalrun, even a SIGKILLed
// one. It returns the process tag for the agents and the function that
// stops the guardian.
func guardProcesses() (string, func(), error) {
	if err := proc.BecomeSubreaper(); err != nil {
		return "", nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return "", nil, fmt.Errorf("start guardian: %w", err)
	}
	g, err := proc.StartGuardian(exe)
	if err != nil {
		return "", nil, err
	}
	return g.Tag, func() { _ = g.Close() }, nil
}

// run parses args, runs the command and returns the process exit code.
// Tests call it in-process: agents are then not guarded by a separate
// process (see runWith).
func run(args []string, stdout, stderr io.Writer) int {
	return runWith(args, stdout, stderr, nil)
}

// runWith is run with the function that guards agent processes (nil: none).
func runWith(args []string, stdout, stderr io.Writer, guard func() (string, func(), error)) int {
	sigs, ctx, stop := watchSignals(stderr)
	defer stop()
	stdout, stderr = releaseOnCancel(ctx, stdout), releaseOnCancel(ctx, stderr)

	cli := CLI{Globals: Globals{Stdout: stdout, Stderr: stderr, guard: guard, signals: sigs}}
	exitCode := -1
	parser, err := kong.New(&cli,
		kong.Name("evalrun"),
		kong.Description("Evaluate LLM agents: run suites, keep the evidence, gate CI on regressions."),
		kong.UsageOnError(),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { exitCode = code }),
		kong.BindTo(ctx, (*context.Context)(nil)),
		kong.Vars{"version": "evalrun " + version(), "evidence_dir": DefaultEvidenceDir},
		kong.ExplicitGroups(flagGroups),
		kong.Help(helpPrinter),
	)
	if err != nil {
		fmt.Fprintf(stderr, "evalrun: %v\n", err)
		return exitInvalid
	}
	if len(args) == 0 {
		// No command: the whole usage, not only "expected one of …".
		parser.Stdout = stderr
		_, _ = parser.Parse([]string{"--help"}) // prints the usage and calls Exit(0)
		return exitInvalid
	}
	kctx, err := parser.Parse(args)
	if exitCode >= 0 { // --help, --version
		return exitCode
	}
	if err != nil {
		fmt.Fprintf(stderr, "evalrun: %v\n", err)
		return exitInvalid
	}
	if err := kctx.Run(&cli.Globals); err != nil {
		var ee *exitError
		if errors.As(err, &ee) {
			if ee.Err != nil {
				fmt.Fprintf(stderr, "evalrun: %v\n", ee.Err)
			}
			return ee.Code
		}
		fmt.Fprintf(stderr, "evalrun: %v\n", err)
		return exitInvalid
	}
	return exitOK
}
