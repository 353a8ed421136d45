package otlp

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// TestExportScores_Failures: an export that did not arrive is an error,
// never a count, for every way a collector fails; the error names the
// endpoint without its password or credential query parameters.
func TestExportScores_Failures(t *testing.T) {
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadAddr := dead.Addr().String()
	dead.Close()
	status := func(code int) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", code) })
	}
	slow := func(d time.Duration) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body) // then the server notices the client leaving
			select {
			case <-time.After(d):
			case <-r.Context().Done(): // the client gave up
			}
			w.Header().Set("Content-Type", "application/x-protobuf")
		})
	}
	run := &models.Run{Suite: "S", Agent: "A", Cases: []*models.CaseResult{{CaseID: "q1", Status: models.StatusPassed}, {CaseID: "q2", Status: models.StatusPassed}}}
	for _, tc := range []struct {
		name    string
		handler http.Handler // nil: nothing listens
		ok      bool
	}{
		{"dead", nil, false},
		{"500", status(http.StatusInternalServerError), false},
		{"429", status(http.StatusTooManyRequests), false},
		{"400", status(http.StatusBadRequest), false},
		{"hanging", slow(time.Hour), false},
		{"slower than the timeout", slow(3 * time.Second), false},
		{"slow within the timeout", slow(200 * time.Millisecond), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := deadAddr
			if tc.handler != nil {
				srv := httptest.NewServer(tc.handler)
				defer srv.Close()
				addr = strings.TrimPrefix(srv.URL, "http://")
			}
			url := "http://bob:hunter2@" + addr + TracesPath + "?api_key=s3cr3t&token=t0k3n"
			start := time.Now()
			n, err := ExportScores(context.Background(), url, run, ExportOptions{Timeout: time.Second})
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("took %s with a 1 s timeout", took)
			}
			if tc.ok {
				if err != nil || n != 2 {
					t.Fatalf("ExportScores = %d, %v; want 2 spans exported", n, err)
				}
				return
			}
			if err == nil || n != 0 {
				t.Fatalf("ExportScores = %d, %v; want an error and no count", n, err)
			}
			for _, secret := range []string{"hunter2", "s3cr3t", "t0k3n"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error shows %q: %v", secret, err)
				}
			}
			if !strings.Contains(err.Error(), "export scores to http://bob:[REDACTED]@"+addr) {
				t.Errorf("error does not name the endpoint: %v", err)
			}
		})
	}
}
