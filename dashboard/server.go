// Package dashboard serves evaldash, the read-only web dashboard over the
// evaluation-history tables shared with the Ruby gem: run history with trend
// charts, run reports, case evidence and run comparisons. It answers GET and
// HEAD only, expects a read-only database connection, and is meant to run
// behind an application's auth proxy under a mount path.
package dashboard

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

//go:embed templates/*.tmpl static/*
var assets embed.FS

// Config configures a Server.
type Config struct {
	// DB is the evaluation history; open it with models.OpenOptions{ReadOnly: true}.
	DB *models.DB
	// MountPath is the path prefix the dashboard lives under ("" or e.g.
	// "/evaluations"); every link, asset, form and download carries it.
	MountPath string
	// TrustedProxies are the addresses or CIDRs whose X-Forwarded-For is
	// believed for the client address in the logs (none by default: the
	// client is then the connection's peer).
	TrustedProxies []string
	// Logger receives one access line per request (method, path with query
	// keys only, status, duration, client) and request failures with their
	// causes and client (default: discard).
	Logger *slog.Logger
	// RequestBudget bounds each request's work (default DefaultRequestBudget).
	RequestBudget time.Duration
}

// Server is the dashboard's http.Handler.
type Server struct {
	// db reads values whole (the JSON downloads); rows cuts every value
	// to rowCaps, runs to runCaps and detail to detailCaps, in the
	// database (see budget.go).
	db, rows, runs, detail *models.DB
	// whole holds a token per whole download being served (holdWhole).
	whole  chan struct{}
	mount  string
	log    *slog.Logger
	pages  map[string]*template.Template
	static fs.FS
	engine *gin.Engine
	// renderer renders the JSON download exactly as `evalrun report`.
	renderer *report.Renderer
	budget   time.Duration
}

var _ http.Handler = (*Server)(nil)

// contentSecurityPolicy allows only the dashboard's own stylesheet and
// icon: no script at all (the pages ship none), no inline style, no
// framing, no form posts elsewhere.
const contentSecurityPolicy = "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'none'; " +
	"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// New builds a Server: it validates the mount path, parses every page's
// templates once and registers the routes.
func New(cfg Config) (*Server, error) {
	if cfg.DB == nil {
		return nil, fmt.Errorf("new dashboard: no database")
	}
	mount, err := CleanMountPath(cfg.MountPath)
	if err != nil {
		return nil, fmt.Errorf("new dashboard: %w", err)
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	pages, err := parsePages(assets)
	if err != nil {
		return nil, fmt.Errorf("new dashboard: %w", err)
	}
	static, err := fs.Sub(assets, "static")
	if err != nil {
		return nil, fmt.Errorf("new dashboard: %w", err)
	}
	renderer, err := report.NewRenderer()
	if err != nil {
		return nil, fmt.Errorf("new dashboard: %w", err)
	}
	db := cfg.DB.WithHistoryWindow(HistoryWindow)
	s := &Server{db: db, rows: db.WithValueCaps(rowCaps), runs: db.WithValueCaps(runCaps), detail: db.WithValueCaps(detailCaps),
		whole: make(chan struct{}, wholeDownloads),
		mount: mount, log: logger, pages: pages, static: static, renderer: renderer, budget: cfg.RequestBudget}
	if s.budget <= 0 {
		s.budget = DefaultRequestBudget
	}

	e := gin.New()
	e.RedirectTrailingSlash = false
	e.RedirectFixedPath = false
	e.HandleMethodNotAllowed = false
	if err := e.SetTrustedProxies(cfg.TrustedProxies); err != nil {
		return nil, fmt.Errorf("new dashboard: trusted proxies: %w", err)
	}
	// The middlewares also run for unknown routes and refused methods, so
	// every request gets its access line.
	e.Use(s.accessLog, gin.CustomRecoveryWithWriter(nil, func(c *gin.Context, rec any) {
		s.fail(c, fmt.Errorf("panic: %v", rec))
	}), s.readOnly)
	get := func(p string, h handlerFunc) {
		e.Match([]string{http.MethodGet, http.MethodHead}, s.mount+p, s.handle(h))
	}
	if s.mount == "" {
		get("/", s.history)
	} else {
		get("", s.history)
		get("/", s.history)
		e.Match([]string{http.MethodGet, http.MethodHead}, "/healthz", s.handle(s.healthz))
	}
	get("/healthz", s.healthz)
	get("/runs/:id", s.runPage)
	get("/runs/:id/report.json", s.runJSON)
	get("/runs/:id/cases/:pos", s.casePage)
	get("/runs/:id/cases/:pos/output.json", s.caseOutput)
	get("/compare", s.compare)
	get("/experiments/:id", s.experiment)
	get("/search", s.search)
	get("/assets/:file", s.asset)
	e.NoRoute(s.handle(func(*gin.Context) error { return notFound("There is no page at this address.") }))
	s.engine = e
	return s, nil
}

// CleanMountPath normalises a mount path: "" and "/" mean the root; anything
// else must be an absolute path of plain segments, returned without a
// trailing slash.
func CleanMountPath(p string) (string, error) {
	if p == "" || p == "/" {
		return "", nil
	}
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("mount path %q must start with /", p)
	}
	clean := strings.TrimSuffix(path.Clean(p), "/")
	for _, seg := range strings.Split(strings.TrimPrefix(clean, "/"), "/") {
		if seg == "" || seg == "." || seg == ".." || strings.ContainsAny(seg, "?#%:*\\ \"'<>") {
			return "", fmt.Errorf("mount path %q has an unsafe segment %q", p, seg)
		}
	}
	return clean, nil
}

// MaxHeaderBytes bounds a request's line and headers. The dashboard
// refuses larger requests itself (431, with its security headers), so the
// http.Server in front of it should allow more: ServerMaxHeaderBytes.
// Go's own limit answers with a 431 that no handler sees; served through
// Listener, that reply carries the security headers too.
const (
	MaxHeaderBytes       = 64 << 10
	ServerMaxHeaderBytes = 1 << 20
)

// ServeHTTP sets the security headers and hands the request to the router,
// whose middlewares log it and refuse every method but GET and HEAD.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	for _, kv := range securityHeaders {
		h.Set(kv[0], kv[1])
	}
	if headerBytes(r) > MaxHeaderBytes {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusRequestHeaderFieldsTooLarge)
		fmt.Fprintf(w, "Request header fields too large: the request line and headers may hold at most %d bytes.\n", MaxHeaderBytes)
		return
	}
	ctx, cancel := context.WithTimeoutCause(r.Context(), s.budget, errBudgetSpent)
	defer cancel()
	s.engine.ServeHTTP(w, r.WithContext(ctx))
}

// DefaultRequestBudget bounds the work of one request: its context ends
// then, so database queries and the loops over rows stop, well before
// evaldash's write timeout (60 s) would drop the connection under a page
// still being built.
const DefaultRequestBudget = 20 * time.Second

// headerBytes is the size of r's request line and headers as sent.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n
}

// handlerFunc is a page handler: it writes a response or returns an error
// that the one wrapper, handle, turns into an error page.
type handlerFunc func(c *gin.Context) error

func (s *Server) handle(h handlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := h(c); err != nil {
			s.fail(c, err)
		}
	}
}

// fail logs an error's cause and renders its public page. A database
// failure is first told apart from a database whose evaluation tables do
// not exist yet, which gets its own page.
func (s *Server) fail(c *gin.Context, err error) {
	ctx := c.Request.Context()
	switch {
	case errors.Is(context.Cause(ctx), errBudgetSpent):
		// Whatever the error says (a driver may report an interrupted
		// query in its own words), the budget ended the work.
		err = &serverError{status: http.StatusServiceUnavailable, cause: err,
			public: fmt.Sprintf("This page needed more than its time budget of %s. Narrow it (a suite, an agent, a longer search text) and try again.", s.budget)}
	case ctx.Err() != nil:
		// The client left: the work stopped with its context, and
		// there is nobody to answer.
		c.Set(clientLeftKey, err)
		c.Abort()
		return
	}
	se := asServerError(err)
	if se.status == http.StatusServiceUnavailable && c.Request.Context().Err() == nil {
		if schema := s.schemaError(c.Request.Context(), se.cause); schema != nil {
			se = schema
		}
	}
	s.writeError(c, se)
	c.Abort()
}

// writeError renders an error page; a server-side failure is logged first
// with its cause and the client address.
func (s *Server) writeError(c *gin.Context, se *serverError) {
	w, r := c.Writer, c.Request
	if se.status >= 500 {
		c.Set(failureKey, fmt.Sprint(se.cause))
	}
	if w.Written() { // the page was cut off after its status went out
		return
	}
	data := &errorPage{BasePage: s.base(r, http.StatusText(se.status), ""), Status: se.status, Message: se.public}
	var buf bytes.Buffer
	if err := s.pages["error"].ExecuteTemplate(&buf, "base", data); err != nil {
		s.log.Error("render error page", "cause", err)
		http.Error(w, se.public, se.status)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(se.status)
	_, _ = buf.WriteTo(w)
}

// render executes a page into a buffer and only then writes it, so a
// template error becomes a clean error page, never half a page; a page
// finished after its budget is not sent (the 503 is).
func (s *Server) render(c *gin.Context, page string, data any) error {
	return s.renderStatus(c, http.StatusOK, page, data)
}

// renderStatus is render with another status than 200, for pages that
// refuse a request but still offer the page's form.
func (s *Server) renderStatus(c *gin.Context, status int, page string, data any) error {
	var buf bytes.Buffer
	if err := s.pages[page].ExecuteTemplate(&buf, "base", data); err != nil {
		return fmt.Errorf("render %s: %w", page, err)
	}
	if err := budgetLeft(c.Request.Context()); err != nil {
		return err
	}
	c.Header("Content-Type", "text/html; charset=utf-8")
	c.Header("Cache-Control", "no-store")
	c.Status(status)
	_, err := buf.WriteTo(c.Writer)
	return err
}

// asset serves the embedded stylesheet, script and icon.
func (s *Server) asset(c *gin.Context) error {
	name := c.Param("file")
	if _, err := fs.Stat(s.static, name); err != nil || strings.Contains(name, "/") {
		return notFound("There is no such asset.")
	}
	c.Header("Cache-Control", "public, max-age=3600")
	http.ServeFileFS(c.Writer, c.Request, s.static, name)
	return nil
}
