package replay

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/agentevals-go/agentevals/bounds"
)

// CA is an ephemeral certificate authority for one run: the proxy signs a
// certificate for every intercepted HTTPS host with it. Its private key
// stays in memory; only the certificate is written, to a private temp dir
// that Close removes.
//
// The written file (CertFile) is a bundle: the CA's certificate followed by
// the trust store the agent would use without the proxy (the file named by
// SSL_CERT_FILE, else the system bundle), because SSL_CERT_FILE and
// friends replace a client's trust store: so an agent also reaches real
// HTTPS servers, through an allowed host's tunnel or a disarmed proxy.
type CA struct {
	cert    *x509.Certificate
	key     *ecdsa.PrivateKey
	leafKey *ecdsa.PrivateKey // shared by all leaf certificates
	dir     string
	file    string

	mu     sync.Mutex
	leaves map[string]*tls.Certificate
}

// NewCA generates a CA valid for a day and writes its certificate (PEM) to
// a new temp dir.
func NewCA() (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("replay CA: generate key: %w", err)
	}
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("replay CA: generate key: %w", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "agentevals replay CA (ephemeral)", Organization: []string{"agentevals"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		MaxPathLenZero:        true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("replay CA: create certificate: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("replay CA: parse certificate: %w", err)
	}
	dir, err := os.MkdirTemp("", "agentevals-replay-ca-")
	if err != nil {
		return nil, fmt.Errorf("replay CA: temp dir: %w", err)
	}
	file := filepath.Join(dir, "ca.pem")
	bundle := append(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), trustStore()...)
	if err := os.WriteFile(file, bundle, 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("replay CA: write certificate: %w", err)
	}
	return &CA{cert: cert, key: key, leafKey: leafKey, dir: dir, file: file, leaves: map[string]*tls.Certificate{}}, nil
}

// CertFile is the path of the CA certificate (PEM), valid until Close.
func (c *CA) CertFile() string { return c.file }

// Pool is a certificate pool holding only the CA, for Go clients.
func (c *CA) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(c.cert)
	return p
}

// Close removes the certificate's temp dir.
func (c *CA) Close() error {
	if err := os.RemoveAll(c.dir); err != nil {
		return fmt.Errorf("replay CA: remove temp dir: %w", err)
	}
	return nil
}

// leaf returns a certificate for host (a DNS name or IP), made once.
func (c *CA) leaf(host string) (*tls.Certificate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if l, ok := c.leaves[host]; ok {
		return l, nil
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: host},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.cert, &c.leafKey.PublicKey, c.key)
	if err != nil {
		return nil, fmt.Errorf("replay CA: certificate for %s: %w", host, err)
	}
	l := &tls.Certificate{Certificate: [][]byte{der, c.cert.Raw}, PrivateKey: c.leafKey}
	c.leaves[host] = l
	return l, nil
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil || n.Sign() == 0 {
		return big.NewInt(time.Now().UnixNano())
	}
	return n
}

// systemBundles are the usual locations of the system's PEM trust store
// (those Go's crypto/x509 reads on Linux).
var systemBundles = []string{
	"/etc/ssl/certs/ca-certificates.crt",
	"/etc/pki/tls/certs/ca-bundle.crt",
	"/etc/ssl/ca-bundle.pem",
	"/etc/pki/tls/cacert.pem",
	"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
	"/etc/ssl/cert.pem",
}

// trustStore returns the PEM certificates a client trusts without the
// proxy: SSL_CERT_FILE's, else the first system bundle found; nil if none
// is readable. Only CERTIFICATE blocks are kept.
func trustStore() []byte {
	files := systemBundles
	if f := os.Getenv("SSL_CERT_FILE"); f != "" {
		files = []string{f}
	}
	for _, f := range files {
		raw, err := bounds.ReadFile(f, bounds.DefaultMaxBytes)
		if err != nil {
			continue
		}
		var out []byte
		for {
			var b *pem.Block
			if b, raw = pem.Decode(raw); b == nil {
				break
			}
			if b.Type == "CERTIFICATE" {
				out = append(out, pem.EncodeToMemory(&pem.Block{Type: b.Type, Bytes: b.Bytes})...)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}
