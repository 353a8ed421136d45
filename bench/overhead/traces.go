package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// newTracesComparison is a Go OpenTelemetry SDK worker (otelworker: three
// spans per answer, flushed before it answers) run by evalrun with
// --traces against the same worker run by the same binary without, at
// -j j. Each --traces side's ratio is against its own binary's untraced
// side.
func newTracesComparison(root string, o options, j int) (*comparison, error) {
	name := fmt.Sprintf("traces-j%d", j)
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	worker := filepath.Join(root, "otelworker")
	if _, err := os.Stat(worker); err != nil {
		cmd := exec.Command("go", "build", "-o", worker, "./bench/overhead/otelworker")
		cmd.Dir = o.moduleDir
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("go build ./bench/overhead/otelworker: %w", err)
		}
	}
	suite, err := writeSuite(dir, "Overhead traces", map[string]any{"name": "otel worker", "type": "worker",
		"command": []string{worker}}, o.cases)
	if err != nil {
		return nil, err
	}
	db := filepath.Join(root, name+"-base.sqlite3")
	bins := []string{o.evalrun}
	if o.compare != "" {
		bins = append(bins, o.compare)
	}
	c := &comparison{name: name}
	var offs []*side
	var first *evalrunSide
	for i, exe := range bins {
		who := []string{"evalrun", "compare"}[i]
		on := &evalrunSide{exe: exe, suite: suite, j: j, cases: o.cases, base: db, tag: fmt.Sprintf("b%d-on", i), extra: []string{"--traces"}}
		off := &evalrunSide{exe: exe, suite: suite, j: j, cases: o.cases, base: db, tag: fmt.Sprintf("b%d-off", i)}
		if first == nil {
			first = off
		}
		offSide := &side{label: fmt.Sprintf("%s run -j %d (save)", who, j), run: off.round}
		c.sides = append(c.sides, &side{label: fmt.Sprintf("%s run -j %d --traces (save)", who, j), run: on.round, base: offSide})
		offs = append(offs, offSide)
	}
	c.sides = append(c.sides, offs...)
	c.warmUp = func() error { return first.prepare(o.history) }
	return c, nil
}
