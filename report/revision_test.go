package report

import (
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

func TestRevision(t *testing.T) {
	for _, tc := range []struct{ meta, want string }{
		{`{"revision":"abc123"}`, "abc123"},
		{`{"git_sha":"0f1e2d","commit":"other"}`, "0f1e2d"},
		{`{"revision":"  ","commit":"c0ffee"}`, "c0ffee"},
		{`{"revision":42}`, "42"},
		{`{"revision":{"nested":true},"sha":"s"}`, "s"},
		{`{"note":"no revision"}`, ""},
		{`null`, ""},
		{``, ""},
	} {
		run := &models.Run{Metadata: models.JSON(tc.meta)}
		if tc.meta == "" {
			run.Metadata = nil
		}
		if got := Revision(run); got != tc.want {
			t.Errorf("Revision(%s) = %q, want %q", tc.meta, got, tc.want)
		}
	}
}
