// Command evaldash serves the read-only evaluation dashboard over the
// history tables that evalrun (and the Ruby gem) write. It has no built-in
// authentication: run it behind an auth proxy. Run "evaldash --help".
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/alecthomas/kong"
	"github.com/gin-gonic/gin"

	"github.com/agentevals-go/agentevals/dashboard"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/schema"
)

// CLI is evaldash's command line.
type CLI struct {
	DatabaseURL    string           `name:"database-url" env:"DATABASE_URL" placeholder:"URL" help:"Database: postgres://… or sqlite:PATH. Default: the embedded SQLite file ($$XDG_DATA_HOME/agentevals/evaluations.sqlite3, else ~/.local/share/agentevals/evaluations.sqlite3). Opened read-only."`
	Listen         string           `default:"127.0.0.1:4567" placeholder:"HOST:PORT" help:"Address to listen on (default: ${default}, loopback only: put an auth proxy in front)."`
	MountPath      string           `name:"mount-path" default:"" placeholder:"PATH" help:"Path prefix the dashboard is served under, e.g. /evaluations."`
	TrustedProxies []string         `name:"trusted-proxies" sep:"," placeholder:"CIDR" help:"Proxies whose X-Forwarded-For is believed for the client address in the access and error log (comma-separated addresses or CIDRs; default: none, the client is the connection's peer)."`
	Version        kong.VersionFlag `name:"version" help:"Print the version and exit."`
}

// Exit codes, as in evalrun: 1 when serving fails, 2 for invalid
// configuration (flags, mount path, listen address, database).
const (
	exitFailed  = 1
	exitInvalid = 2
)

// configError marks an error in the configuration (exit 2).
type configError struct{ err error }

func (e *configError) Error() string { return e.err.Error() }
func (e *configError) Unwrap() error { return e.err }

// invalid wraps err as a configuration error.
func invalid(err error) error { return &configError{err: err} }

// version is the module version of this binary, or "(devel)" when it was
// not built from a tagged module (go run, go build in the checkout).
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args, serves until SIGINT/SIGTERM and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var cli CLI
	exit := -1
	parser, err := kong.New(&cli, kong.Name("evaldash"),
		kong.Description("Read-only web dashboard of the evaluation history. No built-in authentication: put it behind an auth proxy."),
		kong.UsageOnError(), kong.Writers(stdout, stderr), kong.Exit(func(code int) { exit = code }),
		kong.Vars{"version": "evaldash " + version()})
	if err != nil {
		fmt.Fprintln(stderr, "evaldash:", err)
		return 2
	}
	if _, err := parser.Parse(args); err != nil {
		parser.FatalIfErrorf(err)
		return 2
	}
	if exit >= 0 {
		return exit
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	if err := serve(ctx, cli, logger); err != nil {
		fmt.Fprintln(stderr, "evaldash:", err)
		var ce *configError
		if errors.As(err, &ce) {
			return exitInvalid
		}
		return exitFailed
	}
	return 0
}

// databaseURL is --database-url, else the embedded default file, which must
// already exist: the dashboard never creates or migrates a database.
func databaseURL(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	path, err := models.DefaultSQLitePath()
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("no --database-url or DATABASE_URL given and the default database %s does not exist yet; run `evalrun run SUITE` first or point --database-url at your history", path)
	} else if err != nil {
		return "", fmt.Errorf("default database %s: %w", path, err)
	}
	return "sqlite:" + path, nil
}

// checkSchema refuses to start on a database without the evaluation
// tables, or whose tables lack columns the pages read, naming the fix:
// otherwise every page would be a 503 whose cause is only in the log.
func checkSchema(ctx context.Context, db *models.DB) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	rep, err := schema.Ready(ctx, db)
	if err != nil {
		return fmt.Errorf("check the evaluation tables in %s: %w", db.URL, err)
	}
	var missing, columns []string
	for _, d := range rep.Differences {
		switch {
		case d.Problem == schema.MissingTable:
			missing = append(missing, d.Table)
		case d.Problem == schema.MissingColumn && !d.Compatible:
			columns = append(columns, d.Table+"."+d.Column)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the evaluation tables are missing from %s (%s): run `evalrun db:migrate` with the same database URL, then start evaldash again",
			db.URL, strings.Join(missing, ", "))
	}
	if len(columns) > 0 {
		return fmt.Errorf("the evaluation tables in %s lack columns the dashboard reads (%s): `evalrun db:check` says what differs and how to fix it",
			db.URL, strings.Join(columns, ", "))
	}
	return nil
}

func serve(ctx context.Context, cli CLI, logger *slog.Logger) error {
	mount, err := dashboard.CleanMountPath(cli.MountPath)
	if err != nil {
		return invalid(fmt.Errorf("--mount-path: %w", err))
	}
	url, err := databaseURL(cli.DatabaseURL)
	if err != nil {
		return invalid(err)
	}
	openCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
	db, err := models.Open(openCtx, url, models.OpenOptions{ReadOnly: true})
	cancel()
	if err != nil {
		return invalid(err)
	}
	defer db.Close()
	if err := checkSchema(ctx, db); err != nil {
		return invalid(err)
	}

	gin.SetMode(gin.ReleaseMode)
	handler, err := dashboard.New(dashboard.Config{DB: db, MountPath: cli.MountPath,
		TrustedProxies: cli.TrustedProxies, Logger: logger})
	if err != nil {
		return invalid(err)
	}
	ln, err := net.Listen("tcp", cli.Listen)
	if err != nil {
		return invalid(fmt.Errorf("--listen: %w", err))
	}
	if !loopback(ln.Addr()) {
		logger.Warn("evaldash has no login of its own and listens beyond this machine: anyone who can reach "+ln.Addr().String()+
			" reads every run; serve it behind your application's auth proxy (docs/dashboard.md), or listen on 127.0.0.1", "listen", cli.Listen)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: dashboard.ServerMaxHeaderBytes}
	logger.Info("evaldash listening", "url", "http://"+ln.Addr().String()+mount+"/", "database", db.URL,
		"read_only", true)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(dashboard.Listener(ln)) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !strings.Contains(err.Error(), "closed") {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// loopback reports whether a listener accepts connections from this
// machine only.
func loopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
