package sanitize_test

import (
	"testing"

	"github.com/agentevals-go/agentevals/sanitize"
)

// TestRedactPII holds one table per kind of personal data: its positive
// cases get the typed marker, its negative cases (look-alikes that are no
// personal data) stay whole.
func TestRedactPII(t *testing.T) {
	for _, shape := range []struct {
		name  string
		cases []shapeCase
	}{
		{"email", []shapeCase{
			{"write to jane.doe+tag@example.co.uk today", "write to [EMAIL] today"},
			{"<bob@mail.example.com>", "<[EMAIL]>"},
			{`{\"to\":\"ann@example.org\"}`, `{\"to\":\"[EMAIL]\"}`},
			{"mention @team and pkg@1.2.3 and user@localhost", "mention @team and pkg@1.2.3 and user@localhost"},
		}},
		{"phone", []shapeCase{
			{"call +49 151 23456789 now", "call [PHONE] now"},
			{"call +1 (555) 123-4567.", "call [PHONE]."},
			{"or (555) 123-4567 or 555-123-4567 or 555.123.4567", "or [PHONE] or [PHONE] or [PHONE]"},
			{"tel 030 1234 5678", "tel [PHONE]"},
			{"order 4711, order 123456789012, ref 123-456-789", "order 4711, order 123456789012, ref 123-456-789"},
			{"on 2026-12-04 10:00:00 and 04.12.2026", "on 2026-12-04 10:00:00 and 04.12.2026"},
			{"ORD-2024-000123-11 and invoice 2026-000123", "ORD-2024-000123-11 and invoice 2026-000123"},
			{"total 1,234,567.89 EUR", "total 1,234,567.89 EUR"},
		}},
		{"card", []shapeCase{
			{"card 4111 1111 1111 1111 expires", "card [CARD] expires"},
			{"card 4111-1111-1111-1111", "card [CARD]"},
			{"amex 378282246310005.", "amex [CARD]."},
			{"card 4111 1111 1111 1112 fails Luhn", "card 4111 1111 1111 1112 fails Luhn"},
			{"ts 1733300000000 and 1733300000000000000", "ts 1733300000000 and 1733300000000000000"},
		}},
		{"iban", []shapeCase{
			{"pay to DE89 3704 0044 0532 0130 00 please", "pay to [IBAN] please"},
			{"IBAN GB82WEST12345698765432.", "IBAN [IBAN]."},
			{"DE89 3704 0044 0532 0130 01 has a wrong check", "DE89 3704 0044 0532 0130 01 has a wrong check"},
			{"model GPT4 and AB12 XYZ", "model GPT4 and AB12 XYZ"},
		}},
		{"ip", []shapeCase{
			{"from 203.0.113.7 and 2001:db8::8a2e:370:7334", "from [IP] and [IP]"},
			{"dial 10.0.0.7:5432 failed", "dial [IP]:5432 failed"},
			{"local 127.0.0.1:8080 and 0.0.0.0 and ::1", "local 127.0.0.1:8080 and 0.0.0.0 and ::1"},
			{"version v1.2.3.4, 1.2.3 and 10:30:00", "version v1.2.3.4, 1.2.3 and 10:30:00"},
			{"std::vec and a::b", "std::vec and a::b"},
		}},
		{"stays whole", []shapeCase{
			{"uuid 123e4567-e89b-12d3-a456-426614174000", "uuid 123e4567-e89b-12d3-a456-426614174000"},
			{"at 2026-12-04T10:00:00.123Z (unix 1733306400)", "at 2026-12-04T10:00:00.123Z (unix 1733306400)"},
			{"go1.24.3 and node 20.11.1", "go1.24.3 and node 20.11.1"},
			{"trace 4bf92f3577b34da6a3ce929d0e0e4736 span 00f067aa0ba902b7", "trace 4bf92f3577b34da6a3ce929d0e0e4736 span 00f067aa0ba902b7"},
		}},
	} {
		t.Run(shape.name, func(t *testing.T) { checkShapes(t, shape.cases, sanitize.RedactPII) })
	}
}

// TestPolicy_PII: the PII pass runs only when asked, after credential
// redaction, and is reported apart.
func TestPolicy_PII(t *testing.T) {
	in := "mail jane@example.com, password=hunter2"
	if got, rep := sanitize.Text(in); got != "mail jane@example.com, password=[REDACTED]" || rep.PII {
		t.Errorf("Text = %q %+v: PII is opt-in", got, rep)
	}
	pol := sanitize.Policy{PII: true}
	if got, rep := pol.Text(in); got != "mail [EMAIL], password=[REDACTED]" || !rep.PII || !rep.Redacted {
		t.Errorf("Policy{PII}.Text = %q %+v", got, rep)
	}
	doc := `{"from":"jane@example.com","n":"4711","ip":"203.0.113.7"}`
	got, rep := pol.JSON([]byte(doc))
	if string(got) != `{"from":"[EMAIL]","ip":"[IP]","n":"4711"}` || !rep.PII || rep.Redacted {
		t.Errorf("Policy{PII}.JSON = %s %+v", got, rep)
	}
	if got, rep := sanitize.JSON([]byte(doc)); string(got) != doc || rep.Changed() {
		t.Errorf("JSON = %s %+v", got, rep)
	}
}
