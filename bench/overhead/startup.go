package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// startupRuns is how many `evalrun --version` runs one round of the
// startup comparison times per side.
const startupRuns = 20

// newStartupComparison is `evalrun --version` of -evalrun against the
// same of -compare (the yardstick: say, an older build): what starting
// the binary costs before it does anything, package initialisation
// included. A round runs each side startupRuns times; its wall and CPU
// times are their sums and its peak the largest of theirs.
func newStartupComparison(o options) *comparison {
	c := &comparison{name: "startup", cases: startupRuns, warmUp: func() error { return nil }}
	for i, exe := range []string{o.evalrun, o.compare} {
		label := []string{"evalrun --version", "compare --version"}[i]
		c.sides = append(c.sides, &side{label: label, run: func(int) (timing, error) { return versionRuns(exe) }})
	}
	return c
}

// versionRuns runs exe --version startupRuns times.
func versionRuns(exe string) (timing, error) {
	var t timing
	for range startupRuns {
		var out bytes.Buffer
		cmd := exec.Command(exe, "--version")
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return timing{}, fmt.Errorf("%s --version: %w\n%s", exe, err, strings.TrimSpace(out.String()))
		}
		t.wall += time.Since(start)
		t.cpu += cpuOf(cmd.ProcessState)
		t.peakKiB = max(t.peakKiB, peakOf(cmd.ProcessState))
	}
	return t, nil
}
