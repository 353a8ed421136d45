package runner

import (
	"context"
	"testing"
)

func TestInterruptedError_Error(t *testing.T) {
	tests := []struct {
		finished, total int
		want            string
	}{
		{0, 1, "execute suite: interrupted (context canceled): 0 of 1 case finished, 1 unfinished; nothing was saved"},
		{1, 3, "execute suite: interrupted (context canceled): 1 of 3 cases finished, 2 unfinished; nothing was saved"},
	}
	for _, tt := range tests {
		e := &InterruptedError{Finished: tt.finished, Total: tt.total, Cause: context.Canceled}
		if got := e.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}
