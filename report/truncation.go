package report

import (
	"encoding/json"
	"fmt"

	"agentevals/models"
)

// TruncationNote describes, from a case's response metadata, an answer
// that was cut to the answer cap ("answer cut to its first 1048576 of
// 20000013 bytes (sha256 ab12…); scored on what was kept"); "" when the
// answer was kept whole.
func TruncationNote(meta models.JSON) string {
	var m struct {
		T *struct {
			Kept   *int64 `json:"kept_bytes"`
			Reply  *int64 `json:"reply_bytes"`
			SHA256 string `json:"reply_sha256"`
		} `json:"output_truncated"`
	}
	if meta.IsNull() || json.Unmarshal(meta, &m) != nil || m.T == nil || m.T.Kept == nil || m.T.Reply == nil {
		return ""
	}
	sum := m.T.SHA256
	if len(sum) > 12 {
		sum = sum[:12] + "…"
	}
	return fmt.Sprintf("answer cut to its first %d bytes of a %d-byte reply (sha256 %s); scored on what was kept", *m.T.Kept, *m.T.Reply, sum)
}
