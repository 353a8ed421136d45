package report

import (
	"fmt"

	"github.com/agentevals-go/agentevals/models"
)

// TruncationNote describes, from a case's response metadata, an answer
// that was cut to the answer cap ("answer cut to its first 1048576 of
// 20000013 bytes (sha256 ab12…); scored on what was kept"); "" when the
// answer was kept whole.
func TruncationNote(meta models.JSON) string {
	m, err := models.DecodeCaseMetadata(meta)
	if err != nil || m.OutputTruncated == nil || m.OutputTruncated.KeptBytes == nil || m.OutputTruncated.ReplyBytes == nil {
		return ""
	}
	t := m.OutputTruncated
	sum := t.ReplySHA256
	if len(sum) > 12 {
		sum = sum[:12] + "…"
	}
	return fmt.Sprintf("answer cut to its first %d bytes of a %d-byte reply (sha256 %s); scored on what was kept", *t.KeptBytes, *t.ReplyBytes, sum)
}
