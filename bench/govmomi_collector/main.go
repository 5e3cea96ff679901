// govmomi_collector: the baseline for vrecon's vSphere client benchmark (issue 3). It does what a
// govmomi-based collector (Telegraf's vsphere input uses govmomi's `performance` package) does
// for one realtime round: log in, list the VMs through a ContainerView, resolve the counters by
// name, QueryPerf every VM for the six CPU counters (aggregate "" and per-vCPU "0".."n-1",
// maxSample 15) in batches no bigger than the server's metric limit, decode everything into
// performance.EntityMetric, and print counts plus its own CPU time (getrusage) as JSON.
//
// Build offline from Debian's golang-go + golang-github-vmware-govmomi-dev (no network):
//
//	tmp=$(mktemp -d); GO111MODULE=off GOPATH=/usr/share/gocode:$tmp GOCACHE=$tmp/cache \
//	  go build -o $tmp/govmomi_collector bench/govmomi_collector/main.go
//
// Run against the test simulator (tests/vcsim, e.g. -vms 1000):
//
//	govmomi_collector -url https://127.0.0.1:PORT/sdk -user U -password P -ca CA.pem
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/url"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/performance"
	"github.com/vmware/govmomi/session"
	"github.com/vmware/govmomi/view"
	"github.com/vmware/govmomi/vim25"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

var counters = []string{"cpu.usage.average", "cpu.ready.summation", "cpu.costop.summation",
	"cpu.run.summation", "cpu.used.summation", "cpu.wait.summation"}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

func main() {
	rawURL := flag.String("url", "", "https://host/sdk")
	user := flag.String("user", "", "user name")
	password := flag.String("password", "", "password (or env VRECON_VSPHERE_PASSWORD)")
	insecure := flag.Bool("insecure", false, "skip certificate verification")
	ca := flag.String("ca", "", "PEM file of a CA to trust")
	maxSample := flag.Int("max-sample", 15, "samples per series")
	maxMetrics := flag.Int("max-metrics", 0, "series per QueryPerf (0: config.vpxd.stats.maxQueryMetrics, else 64)")
	perVCPU := flag.Bool("per-vcpu", true, "also query instances 0..numCPU-1")
	concurrency := flag.Int("concurrency", 1, "parallel QueryPerf calls")
	flag.Parse()
	if *password == "" {
		*password = os.Getenv("VRECON_VSPHERE_PASSWORD")
	}
	u, err := url.Parse(*rawURL)
	if err != nil || *rawURL == "" {
		log.Fatal("-url https://host/sdk is required")
	}
	ctx := context.Background()
	start, cpu0 := time.Now(), cpuSeconds()

	sc := soap.NewClient(u, *insecure)
	if *ca != "" {
		if err := sc.SetRootCAs(*ca); err != nil {
			log.Fatal(err)
		}
	}
	c, err := vim25.NewClient(ctx, sc)
	if err != nil {
		log.Fatal(err)
	}
	sm := session.NewManager(c)
	if err := sm.Login(ctx, url.UserPassword(*user, *password)); err != nil {
		log.Fatal(err)
	}
	defer sm.Logout(ctx)

	// Discovery: VMs with their vCPU count.
	cv, err := view.NewManager(c).CreateContainerView(ctx, c.ServiceContent.RootFolder, []string{"VirtualMachine"}, true)
	if err != nil {
		log.Fatal(err)
	}
	var vms []mo.VirtualMachine
	if err := cv.Retrieve(ctx, []string{"VirtualMachine"}, []string{"name", "config.hardware.numCPU"}, &vms); err != nil {
		log.Fatal(err)
	}
	_ = cv.Destroy(ctx)

	pm := performance.NewManager(c)
	byName, err := pm.CounterInfoByName(ctx)
	if err != nil {
		log.Fatal(err)
	}
	limit := *maxMetrics
	if limit <= 0 {
		limit = 64
		if opts, err := object.NewOptionManager(c, *c.ServiceContent.Setting).Query(ctx, "config.vpxd.stats.maxQueryMetrics"); err == nil && len(opts) == 1 {
			if n, err := strconv.Atoi(fmt.Sprint(opts[0].GetOptionValue().Value)); err == nil && n > 0 {
				limit = n
			}
		}
	}
	cpuDiscovery := cpuSeconds() - cpu0

	// One spec per VM, packed into batches of at most `limit` series (at least one VM each).
	var batches [][]types.PerfQuerySpec
	var batch []types.PerfQuerySpec
	inBatch := 0
	for _, vm := range vms {
		instances := []string{""}
		if *perVCPU && vm.Config != nil {
			for i := int32(0); i < vm.Config.Hardware.NumCPU; i++ {
				instances = append(instances, strconv.Itoa(int(i)))
			}
		}
		var ids []types.PerfMetricId
		for _, name := range counters {
			info, ok := byName[name]
			if !ok {
				log.Fatalf("counter %s not offered by the server", name)
			}
			for _, inst := range instances {
				ids = append(ids, types.PerfMetricId{CounterId: info.Key, Instance: inst})
			}
		}
		if inBatch > 0 && inBatch+len(ids) > limit {
			batches, batch, inBatch = append(batches, batch), nil, 0
		}
		batch = append(batch, types.PerfQuerySpec{Entity: vm.Self, MetricId: ids, IntervalId: 20,
			MaxSample: int32(*maxSample), Format: string(types.PerfFormatNormal)})
		inBatch += len(ids)
	}
	if len(batch) > 0 {
		batches = append(batches, batch)
	}

	var mu sync.Mutex
	series, samples, timestamps := 0, 0, 0
	work := make(chan []types.PerfQuerySpec)
	var wg sync.WaitGroup
	for w := 0; w < *concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				raw, err := pm.Query(ctx, b)
				if err != nil {
					log.Fatal(err)
				}
				result, err := pm.ToMetricSeries(ctx, raw)
				if err != nil {
					log.Fatal(err)
				}
				mu.Lock()
				for _, em := range result {
					timestamps += len(em.SampleInfo)
					for _, s := range em.Value {
						series++
						samples += len(s.Value)
					}
				}
				mu.Unlock()
			}
		}()
	}
	for _, b := range batches {
		work <- b
	}
	close(work)
	wg.Wait()

	out := map[string]interface{}{
		"vms": len(vms), "counters": len(counters), "batch_limit": limit, "queries": len(batches),
		"series": series, "samples": samples, "sample_timestamps": timestamps,
		"wall_s": time.Since(start).Seconds(), "cpu_s": cpuSeconds() - cpu0,
		"cpu_discovery_s": cpuDiscovery, "cpu_collect_s": cpuSeconds() - cpu0 - cpuDiscovery,
	}
	enc := json.NewEncoder(os.Stdout)
	_ = enc.Encode(out)
}
