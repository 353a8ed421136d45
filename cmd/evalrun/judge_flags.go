package main

import (
	"context"

	"agentevals/judges"
	"agentevals/runner"
)

// JudgeFlags select and override the suite's judge (issue 4 fills this in).
type JudgeFlags struct{}

// judge returns the judge configured by the suite and flags, or nil when
// none is configured or --no-judge is given. Invalid settings are errors
// (exit 2) reported before any agent runs.
func (f *JudgeFlags) judge(ctx context.Context, cfg *runner.ModelConfig) (judges.Judge, error) {
	return nil, nil
}
