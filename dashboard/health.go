package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/uptrace/bun/schema"

	"github.com/agentevals-go/agentevals/models"
)

// healthTimeout bounds the health check and the missing-tables probe.
const healthTimeout = 2 * time.Second

// healthz answers 200 "ok" when the database answers and its evaluation
// tables hold every column the dashboard reads; otherwise a 503:
// "unavailable" when the database does not answer, or what is missing
// (tables, or columns such as a 0.1-era database's minimum_scores) and the
// command that fixes it.
func (s *Server) healthz(c *gin.Context) error {
	ctx, cancel := context.WithTimeout(c.Request.Context(), healthTimeout)
	defer cancel()
	c.Header("Cache-Control", "no-store")
	if err := s.db.PingContext(ctx); err != nil {
		s.log.Error("health check failed", "cause", err)
		c.String(http.StatusServiceUnavailable, "unavailable\nThe database does not answer; the dashboard's log has the cause (server down, network, credentials).\n")
		return nil
	}
	if missing, problem := s.schemaProblem(ctx); problem != "" {
		s.log.Error("health check failed: " + problem)
		if missing {
			problem = "evaluation tables missing\nRun `evalrun db:migrate` against this dashboard's database (the same DATABASE_URL); `evalrun db:check` explains what differs."
		}
		c.String(http.StatusServiceUnavailable, problem+"\n")
		return nil
	}
	c.String(http.StatusOK, "ok\n")
	return nil
}

// schemaProblem says, for people, what keeps the dashboard from reading
// the evaluation tables and how to fix it: the missing tables (tables is
// true), or the missing columns of the tables that exist, named by the
// short table name (a 0.1-era database lacks case_results.minimum_scores).
// "" when every column of the records is readable. It is the one check
// behind /healthz and the pages' 503.
func (s *Server) schemaProblem(ctx context.Context) (tablesMissing bool, problem string) {
	var tables, columns []string
	for _, m := range []any{(*models.Run)(nil), (*models.CaseResult)(nil), (*models.MetricResult)(nil)} {
		tbl := s.db.Table(reflect.TypeOf(m).Elem())
		if s.probe(ctx, `SELECT 1 FROM "`+tbl.Name+`"`) != nil {
			tables = append(tables, tbl.Name)
			continue
		}
		if s.probe(ctx, columnsProbe(tbl)) == nil {
			continue
		}
		for _, f := range tbl.Fields {
			if s.probe(ctx, `SELECT "`+f.Name+`" FROM "`+tbl.Name+`"`) != nil {
				columns = append(columns, strings.TrimPrefix(tbl.Name, "ruby_llm_evaluations_")+"."+f.Name)
			}
		}
	}
	switch {
	case len(tables) > 0:
		return true, fmt.Sprintf("%d of the 3 evaluation tables missing; run `evalrun db:migrate` against this database", len(tables))
	case len(columns) > 0:
		return false, "evaluation tables from an older version: missing columns " + strings.Join(columns, ", ") +
			"; run `evalrun db:migrate` against this database to upgrade them in place (every row is kept)"
	}
	return false, ""
}

// readable is nil when every column of the three tables' records can be
// read, else the schema's 503. Pages that read only some columns (the
// history's totals) call it first, so an older schema is explained there
// too rather than shown as a history with values missing. Three LIMIT 0
// queries.
func (s *Server) readable(ctx context.Context) error {
	for _, m := range []any{(*models.Run)(nil), (*models.CaseResult)(nil), (*models.MetricResult)(nil)} {
		tbl := s.db.Table(reflect.TypeOf(m).Elem())
		if err := s.probe(ctx, columnsProbe(tbl)); err != nil {
			if se := s.schemaError(ctx, err); se != nil {
				return se
			}
			return unavailable(err)
		}
	}
	return nil
}

// columnsProbe selects every column of a record's table.
func columnsProbe(tbl *schema.Table) string {
	names := make([]string, len(tbl.Fields))
	for i, f := range tbl.Fields {
		names[i] = `"` + f.Name + `"`
	}
	return "SELECT " + strings.Join(names, ", ") + ` FROM "` + tbl.Name + `"`
}

// probe runs query with LIMIT 0: an error means a table or column does not
// exist (or cannot be read).
func (s *Server) probe(ctx context.Context, query string) error {
	rows, err := s.db.QueryContext(ctx, query+" LIMIT 0")
	if err != nil {
		return err
	}
	return rows.Close()
}

// schemaError is the 503 of pages when the database answers but its
// tables cannot be read: the page says what is missing and what to do,
// and returns nil when the schema is fine (the database is down instead).
func (s *Server) schemaError(ctx context.Context, cause error) *serverError {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	if s.db.PingContext(ctx) != nil {
		return nil
	}
	missing, problem := s.schemaProblem(ctx)
	switch {
	case problem == "":
		return nil
	case missing:
		return tablesMissingError(cause)
	}
	return &serverError{status: http.StatusServiceUnavailable, cause: cause,
		public: "The dashboard cannot read the evaluation history: " + problem + ", then reload this page."}
}

// tablesMissingError is the 503 of pages on a database that was never
// migrated: it says what to do, and logs the cause only.
func tablesMissingError(cause error) *serverError {
	return &serverError{status: http.StatusServiceUnavailable, cause: cause,
		public: "The evaluation tables do not exist in this database yet. Run `evalrun db:migrate` " +
			"against the same database (the DATABASE_URL this dashboard uses), then reload this page."}
}
