package suite

import (
	"path/filepath"

	"github.com/agentevals-go/agentevals/score"
)

// Parse validates and resolves a suite document already read from file
// (a document built from another file, such as a monitor's checks): the
// same checks as Load, with problems named against file and relative
// paths resolved against dir.
func Parse(file, dir string, data []byte, reg score.Registry) (*Suite, error) {
	var list []Problem
	p := Problems{File: file, List: &list}
	if !p.bounded(data, false) || !p.Portable(data) {
		return nil, &ValidationError{Problems: list}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		p.add("", "cannot resolve the directory: %v", err)
		return nil, &ValidationError{Problems: list}
	}
	s := &Suite{Path: file, Dir: abs, Registry: reg, memo: &digestMemo{}, typed: typeScorers{}}
	s.parse(p, data)
	s.seal()
	if len(list) > 0 {
		return nil, &ValidationError{Problems: list}
	}
	return s, nil
}
