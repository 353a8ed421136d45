package dashboard

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

// TestLongOutput: a case page shows a long output shortened, with a link
// to the whole value, which downloads it; the streamed JSON report is the
// report the renderer writes.
func TestLongOutput(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	ctx := context.Background()
	long := strings.Repeat("é", maxShownBytes) // twice the bytes shown
	out, _ := json.Marshal(long)
	run := supportRun(t0, 0.95, models.JSON(`[]`), false, models.JSON(`{}`))
	run.Cases[0].Output = models.JSON(out)
	if err := rw.InsertRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	ts := MustServe(t, ro, "")
	id := run.ID.String()

	page := fetch(t, http.MethodGet, ts.URL+"/runs/"+id+"/cases/0")
	if page.Status != http.StatusOK || len(page.Body) > 2*maxShownBytes || !strings.Contains(page.Body, "download the whole output") {
		t.Fatalf("case page: status %d, %d bytes", page.Status, len(page.Body))
	}
	if !strings.Contains(page.Body, "bytes are shown; the stored values are above]") {
		t.Error("the rebuilt judge prompt of the long output is not shortened")
	}
	var got string
	if err := json.Unmarshal(download(t, ts.URL+"/runs/"+id+"/cases/0/output.json"), &got); err != nil || got != long {
		t.Fatalf("output.json: %d characters, err %v", len([]rune(got)), err)
	}

	var streamed, rendered any
	if err := json.Unmarshal(download(t, ts.URL+"/runs/"+id+"/report.json"), &streamed); err != nil {
		t.Fatalf("streamed report is not JSON: %v", err)
	}
	s, err := New(Config{DB: ro})
	if err != nil {
		t.Fatal(err)
	}
	_, cmp, err := s.loadComparison(ctx, s.db, id)
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	whole, err := r.Bytes(report.FormatJSON, cmp)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(whole, &rendered); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(streamed, rendered) {
		t.Errorf("the streamed report differs from the rendered one")
	}
}

func download(t *testing.T, url string) []byte {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, res.StatusCode, err)
	}
	return b
}
