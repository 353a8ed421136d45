package dashboard

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"agentevals/models"
)

// healthTimeout bounds the health check and the missing-tables probe.
const healthTimeout = 2 * time.Second

// healthz answers 200 "ok" when the database answers and holds the three
// evaluation tables; otherwise a 503 whose first line is "unavailable" or
// "evaluation tables missing", followed by what to do (no internal
// detail: the cause is logged).
func (s *Server) healthz(c *gin.Context) error {
	ctx, cancel := context.WithTimeout(c.Request.Context(), healthTimeout)
	defer cancel()
	c.Header("Cache-Control", "no-store")
	if err := s.db.PingContext(ctx); err != nil {
		s.log.Error("health check failed", "cause", err)
		c.String(http.StatusServiceUnavailable, "unavailable\nThe database does not answer; the dashboard's log has the cause (server down, network, credentials).\n")
		return nil
	}
	if err := s.checkTables(ctx); err != nil {
		s.log.Error("health check failed: evaluation tables missing", "cause", err)
		c.String(http.StatusServiceUnavailable, "evaluation tables missing\nRun `evalrun db:migrate` against this dashboard's database (the same DATABASE_URL); `evalrun db:check` explains what differs.\n")
		return nil
	}
	c.String(http.StatusOK, "ok\n")
	return nil
}

// checkTables reads nothing from each evaluation table: an error means a
// table does not exist (or cannot be read).
func (s *Server) checkTables(ctx context.Context) error {
	for _, t := range []string{models.RunsTable, models.CaseResultsTable, models.MetricResultsTable} {
		rows, err := s.db.QueryContext(ctx, `SELECT 1 FROM "`+t+`" LIMIT 0`)
		if err != nil {
			return err
		}
		rows.Close()
	}
	return nil
}

// tablesMissing reports whether the database answers but lacks an
// evaluation table (an unmigrated database), as opposed to being down.
func (s *Server) tablesMissing(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	if s.db.PingContext(ctx) != nil {
		return false
	}
	return s.checkTables(ctx) != nil
}

// tablesMissingError is the 503 of pages on a database that was never
// migrated: it says what to do, and logs the cause only.
func tablesMissingError(cause error) *serverError {
	return &serverError{status: http.StatusServiceUnavailable, cause: cause,
		public: "The evaluation tables do not exist in this database yet. Run `evalrun db:migrate` " +
			"against the same database (the DATABASE_URL this dashboard uses), then reload this page."}
}
