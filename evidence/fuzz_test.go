package evidence

import (
	"testing"
	"time"
)

// FuzzParse is the evidence reader's property: whatever the bytes, Parse
// returns a file or an error, never panics, and a file it accepts writes
// back (Marshal) to a file it accepts again with the same content: the
// import of a file it wrote is idempotent. The committed corpus
// (testdata/fuzz/FuzzParse) holds a whole run, a shard and hostile
// variants (NUL, lone surrogates, deep nesting, year 9999, huge counts);
// it runs with every `go test`.
func FuzzParse(f *testing.F) {
	run, def := sampleRun(f, 3)
	good, err := (&File{Run: run, Definition: def}).Marshal()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	now := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC) // the corpus's runs are of 2026-12-01
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := ParseWith("fuzz.json", data, Options{Now: now})
		if err != nil {
			return
		}
		out, err := file.Marshal()
		if err != nil {
			t.Fatalf("an accepted file does not write back: %v", err)
		}
		again, err := ParseWith("again.json", out, Options{Now: now})
		if err != nil {
			t.Fatalf("an accepted file, written back, is refused: %v\n%s", err, out)
		}
		if same, diff := Equal(file.Run, again.Run); !same {
			t.Fatalf("an accepted file, written back and read again, differs: %s", diff)
		}
	})
}
