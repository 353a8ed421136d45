package eval_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/evidence"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// TestRun_WriteAheadBeforeCommit: the evidence file the save writes
// meanwhile is complete before the save commits (it holds every row), and
// once the save has committed the file and the directory it made are gone.
func TestRun_WriteAheadBeforeCommit(t *testing.T) {
	s := loadSuite(t)
	db := testdb.SQLite(t)
	dir := filepath.Join(t.TempDir(), "evidence")
	commits := 0
	before := func() {
		commits++
		paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		if len(paths) != 1 {
			t.Fatalf("before the commit: evidence files %v, want one", paths)
		}
		f, err := evidence.Read(paths[0])
		if err != nil {
			t.Fatalf("before the commit: %v", err)
		}
		if !strings.Contains(f.Reason, "written before the save") || len(f.Run.Cases) != len(s.Cases) {
			t.Errorf("before the commit: reason %q, %d cases; want %d", f.Reason, len(f.Run.Cases), len(s.Cases))
		}
	}
	var calls atomic.Int64
	res, err := eval.Run(context.Background(), eval.Task{Suite: s, Agent: answering(map[string]string{"alpha": "A", "beta": "B"}, &calls),
		Store: eval.Store{DB: db, EvidenceDir: dir, Save: models.SaveOptions{BeforeCommit: before}}})
	if err != nil || res.Evidence.Kept != eval.Saved {
		t.Fatalf("run: %v, %+v", err, res)
	}
	if commits != 1 {
		t.Errorf("BeforeCommit called %d times, want 1", commits)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the evidence directory is still there after the commit: %v", err)
	}
	runs, err := db.GetRuns(context.Background(), []uuid.UUID{res.Run.ID})
	if err != nil || len(runs) != 1 || len(runs[0].Cases) != len(s.Cases) {
		t.Errorf("saved: %v, %d runs", err, len(runs))
	}
}
