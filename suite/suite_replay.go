package suite

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/agentevals-go/agentevals/replay"
)

// loadReplay validates a question's api_interactions (path is the
// question's JSON path) and returns its fixtures, or nil after adding the
// problem.
func loadReplay(p Problems, path string, raw json.RawMessage, dir string) *replay.Fixtures {
	fx, err := replay.Load(raw, dir)
	if err == nil {
		return fx
	}
	errs := []error{err}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		errs = joined.Unwrap()
	}
	for _, err := range errs {
		var fe *replay.FixtureError
		if errors.As(err, &fe) {
			p.add(path+strings.TrimPrefix(fe.Path, "api_interactions"), "%s", strings.TrimPrefix(fe.Error(), fe.Path+": "))
		} else {
			p.add(path, "%v", err)
		}
	}
	return nil
}
