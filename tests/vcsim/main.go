// vrecon_vcsim: govmomi's vCenter simulator (Debian's golang-github-vmware-govmomi-dev, 0.24.2)
// wrapped for the C++ integration tests. It serves HTTPS on 127.0.0.1 with a certificate the
// tests can verify, requires one user/password, writes an info file once it is ready, lets a
// test expire every session mid-run or move its clock forward, and exits cleanly on SIGTERM.
//
// Build offline (no modules, sources from the Debian package):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode:$TMP go build -o vrecon_vcsim tests/vcsim/main.go
package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"flag"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/signal"
	"regexp"
	"sort"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/property"
	"github.com/vmware/govmomi/session"
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/view"
	"github.com/vmware/govmomi/vim25"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/types"
)

// clockShift answers the SOAP CurrentTime call with the simulator's answer moved *offsetNs
// forward; everything else passes through. A collector takes the server's time as the end of
// what it asks, and the simulator's QueryPerf stamps samples back from that end, so moving the
// clock 5 minutes gives the next round 5 new minutes of samples, as a real round 5 minutes
// later would get, without waiting for them. (The simulator's ServiceInstance cannot be
// replaced: its registry asserts the concrete type.) Faults, such as NotAuthenticated from an
// expired session, pass unchanged.
func clockShift(next http.Handler, offsetNs *int64) http.Handler {
	answer := regexp.MustCompile(`<returnval>([^<]+)</returnval>`)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		off := atomic.LoadInt64(offsetNs)
		if off == 0 || r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if !bytes.Contains(body, []byte("<CurrentTime")) {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		out := answer.ReplaceAllFunc(rec.Body.Bytes(), func(m []byte) []byte {
			t, err := time.Parse(time.RFC3339Nano, string(answer.FindSubmatch(m)[1]))
			if err != nil {
				return m
			}
			return []byte("<returnval>" + t.Add(time.Duration(off)).Format(time.RFC3339Nano) + "</returnval>")
		})
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(out)))
		w.WriteHeader(rec.Code)
		_, _ = w.Write(out)
	})
}

func main() {
	vms := flag.Int("vms", 4, "total number of VMs")
	hosts := flag.Int("hosts", 1, "standalone hosts per datacenter")
	clusters := flag.Int("clusters", 1, "clusters per datacenter")
	clusterHosts := flag.Int("cluster-hosts", 3, "hosts per cluster")
	port := flag.Int("port", 0, "HTTPS port on 127.0.0.1 (0: a free one)")
	user := flag.String("user", "", "required user name (empty: any non-empty user/password)")
	password := flag.String("password", "", "required password")
	info := flag.String("info", "", "write url=, ca_file=, admin=, pid= lines here once ready")
	maxMetrics := flag.Int("max-query-metrics", 0, "publish config.vpxd.stats.maxQueryMetrics (0: absent)")
	namePrefix := flag.String("name-prefix", "", "put this before every VM's name (simulators with different prefixes share no VM name)")
	statsLevel := flag.Int("stats-level", 0, "publish vCenter's four default historical intervals at this statistics level (0: none, as the simulator has)")
	dayKeep := flag.Int("day-keep", 86400, "with -stats-level: how long (s) the 5-minute interval is kept")
	flag.Parse()
	if *info == "" {
		log.Fatal("-info is required")
	}

	// VMs are created per resource pool: one per standalone host and one per cluster. Round the
	// per-pool count up, then destroy the surplus so exactly -vms remain.
	slots := *hosts + *clusters
	if slots <= 0 || *vms < 0 {
		log.Fatal("need -hosts + -clusters >= 1 and -vms >= 0")
	}
	model := simulator.VPX()
	model.Host, model.Cluster, model.ClusterHost = *hosts, *clusters, *clusterHosts
	model.Machine = (*vms + slots - 1) / slots
	if err := model.Create(); err != nil {
		log.Fatal(err)
	}
	defer model.Remove() // temp datastore directories

	// model.Service is a soap.RoundTripper that calls the simulator in process with an internal
	// session that bypasses login: the tool we use for trimming VMs and expiring sessions.
	ctx := context.Background()
	internal, err := vim25.NewClient(ctx, model.Service)
	if err != nil {
		log.Fatal(err)
	}
	if err := trimVMs(ctx, internal, *vms); err != nil {
		log.Fatal(err)
	}
	if *namePrefix != "" {
		if err := prefixVMNames(ctx, internal, *namePrefix); err != nil {
			log.Fatal(err)
		}
	}
	if *maxMetrics > 0 { // the real vpxd option a client reads to size QueryPerf batches
		om := simulator.Map.OptionManager()
		om.Setting = append(om.Setting, &types.OptionValue{
			Key: "config.vpxd.stats.maxQueryMetrics", Value: int32(*maxMetrics)})
	}

	if *statsLevel > 0 { // PerformanceManager.historicalInterval, as a real vCenter lists it
		pm := simulator.Map.Get(*internal.ServiceContent.PerfManager).(*simulator.PerformanceManager)
		interval := func(key, period int32, name string, length int32) types.PerfInterval {
			return types.PerfInterval{Key: key, SamplingPeriod: period, Name: name, Length: length,
				Level: int32(*statsLevel), Enabled: true}
		}
		pm.HistoricalInterval = []types.PerfInterval{
			interval(1, 300, "Past day", int32(*dayKeep)), interval(2, 1800, "Past week", 604800),
			interval(3, 7200, "Past month", 2592000), interval(4, 86400, "Past year", 31536000)}
	}

	// The simulator's built-in certificate is Go's httptest cert: RSA-1024, which OpenSSL at
	// Debian's default security level 2 refuses ("ee key too small"). So make our own CA and a
	// P-256 server cert with IP SAN 127.0.0.1; the CA PEM is what a client passes as --ca.
	caPath := *info + ".ca.pem"
	serverCert, err := makeCerts(caPath)
	if err != nil {
		log.Fatal(err)
	}
	model.Service.TLS = &tls.Config{Certificates: []tls.Certificate{serverCert}}
	listen := &url.URL{Host: fmt.Sprintf("127.0.0.1:%d", *port)}
	if *user != "" || *password != "" {
		// With Listen.User set, SessionManager.Login accepts only this pair; anything else
		// gets the InvalidLogin fault ("Login failure").
		listen.User = url.UserPassword(*user, *password)
	}
	model.Service.Listen = listen
	server := model.Service.NewServer()
	defer server.Close()
	// Set before the info file tells anyone the port, so no request sees the old handler.
	var clockOffsetNs int64
	server.Config.Handler = clockShift(server.Config.Handler, &clockOffsetNs)

	// Sessions live in an unexported map of the SessionManager, but its TerminateSession method
	// deletes from that map, and the in-process client may call it for every session listed
	// in sessionList. Clients then get NotAuthenticated on their next call with the old cookie.
	expire := func() (int, error) {
		var sm mo.SessionManager
		pc := property.DefaultCollector(internal)
		if err := pc.RetrieveOne(ctx, *internal.ServiceContent.SessionManager, []string{"sessionList"}, &sm); err != nil {
			return 0, err
		}
		var ids []string
		for _, s := range sm.SessionList {
			ids = append(ids, s.Key)
		}
		if len(ids) == 0 {
			return 0, nil
		}
		return len(ids), session.NewManager(internal).TerminateSession(ctx, ids)
	}

	// Plain-HTTP admin endpoint on another loopback port: synchronous, so a test knows the
	// sessions are gone when the response arrives (a signal would race with the next call).
	adminLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/expire-sessions", func(w http.ResponseWriter, r *http.Request) {
		n, err := expire()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprintf(w, "expired %d\n", n)
	})
	// /advance-clock?s=N moves the server's clock N seconds forward (see clockShift).
	mux.HandleFunc("/advance-clock", func(w http.ResponseWriter, r *http.Request) {
		secs, err := strconv.ParseInt(r.URL.Query().Get("s"), 10, 64)
		if err != nil || secs < 0 {
			http.Error(w, "s: a whole number of seconds >= 0", http.StatusBadRequest)
			return
		}
		off := atomic.AddInt64(&clockOffsetNs, secs*int64(time.Second))
		fmt.Fprintf(w, "clock +%d s\n", off/int64(time.Second))
	})
	go func() { _ = http.Serve(adminLn, mux) }()

	// Written last and renamed into place, so a reader never sees a half-written file and the
	// port already accepts connections when the file appears.
	tmp := *info + ".tmp"
	text := fmt.Sprintf("url=%s://%s/sdk\nca_file=%s\nadmin=%s\npid=%d\n",
		server.URL.Scheme, server.URL.Host, caPath, adminLn.Addr(), os.Getpid())
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.Rename(tmp, *info); err != nil {
		log.Fatal(err)
	}

	// SIGUSR1 also expires sessions (for manual use); SIGTERM/SIGINT stop the simulator.
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT, syscall.SIGUSR1)
	for s := range sig {
		if s == syscall.SIGUSR1 {
			if n, err := expire(); err != nil {
				log.Printf("expire sessions: %v", err)
			} else {
				log.Printf("expired %d sessions", n)
			}
			continue
		}
		return // deferred Close/Remove run
	}
}

// allVMs lists every VM with its name, by name.
func allVMs(ctx context.Context, c *vim25.Client) ([]mo.VirtualMachine, error) {
	v, err := view.NewManager(c).CreateContainerView(ctx, c.ServiceContent.RootFolder, []string{"VirtualMachine"}, true)
	if err != nil {
		return nil, err
	}
	defer v.Destroy(ctx)
	var all []mo.VirtualMachine
	if err := v.Retrieve(ctx, []string{"VirtualMachine"}, []string{"name"}, &all); err != nil {
		return nil, err
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all, nil
}

// trimVMs powers off and destroys VMs (highest names first) until exactly want remain.
func trimVMs(ctx context.Context, c *vim25.Client, want int) error {
	all, err := allVMs(ctx, c)
	if err != nil {
		return err
	}
	for i := len(all) - 1; i >= want; i-- {
		vm := object.NewVirtualMachine(c, all[i].Self)
		if t, err := vm.PowerOff(ctx); err == nil {
			_ = t.Wait(ctx)
		}
		t, err := vm.Destroy(ctx)
		if err != nil {
			return err
		}
		if err := t.Wait(ctx); err != nil {
			return err
		}
	}
	return nil
}

// prefixVMNames renames every VM to prefix + its name.
func prefixVMNames(ctx context.Context, c *vim25.Client, prefix string) error {
	all, err := allVMs(ctx, c)
	if err != nil {
		return err
	}
	for _, vm := range all {
		t, err := object.NewVirtualMachine(c, vm.Self).Rename(ctx, prefix+vm.Name)
		if err != nil {
			return err
		}
		if err := t.Wait(ctx); err != nil {
			return err
		}
	}
	return nil
}

// makeCerts writes a fresh self-signed CA to caPath and returns a server certificate it signed
// for 127.0.0.1, ::1 and localhost. P-256 keys: fast to generate, accepted by every TLS stack.
func makeCerts(caPath string) (tls.Certificate, error) {
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "vrecon test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(10 * 24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return tls.Certificate{}, err
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(10 * 24 * time.Hour),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.IPv6loopback},
		DNSNames:    []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		return tls.Certificate{}, err
	}
	pemCA := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	if err := os.WriteFile(caPath, pemCA, 0o644); err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der, caDER}, PrivateKey: key}, nil
}
