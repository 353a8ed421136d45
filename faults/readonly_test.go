package faults

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Row 8: `evalrun history` and `report` read a SQLite file the user may
// not write (a copy from CI, a read-only volume), which once failed with
// "attempt to write a readonly database". As root (who may write
// anything) the commands run as the user nobody.
func TestRow8_ReadOnlySQLite(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"agent.sh":   "cat >/dev/null; echo ok",
		"suite.json": suiteJSON(`{"name": "A", "command": ["sh", "agent.sh"]}`, 1),
	})
	if r := evalrun(t, dir, "--database-url", "sqlite:"+filepath.Join(dir, "db.sqlite3"), "run", "suite.json"); r.code != 0 {
		t.Fatalf("run: exit %d: %s", r.code, r.stderr)
	}
	// a directory and file nobody can write, and a binary everyone may run
	ro, err := os.MkdirTemp("", "faults-ro-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(ro) })
	data, err := os.ReadFile(filepath.Join(dir, "db.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(ro, "db.sqlite3")
	bin := filepath.Join(ro, "evalrun")
	copyFile(t, evalrunBin, bin, 0o755)
	if err := os.WriteFile(db, data, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"history"}, {"report"}} {
		argv := append([]string{"--database-url", "sqlite:" + db}, args...)
		cmd := exec.Command(bin, argv...)
		if os.Geteuid() == 0 {
			cmd = exec.Command("runuser", append([]string{"-u", "nobody", "--", bin}, argv...)...)
		}
		cmd.Dir = ro
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "Faults") {
			t.Errorf("%v on a read-only file: %v\n%s", args, err, out)
		}
	}
	if entries, _ := os.ReadDir(ro); len(entries) != 2 {
		t.Errorf("reading wrote files next to the database: %v", entries)
	}
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, mode); err != nil {
		t.Fatal(err)
	}
}
