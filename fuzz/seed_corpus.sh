#!/usr/bin/env bash
# Writes the raw seeds of every fuzz target into OUT/<target>/: the fixtures/ files of each
# grammar, plus small samples of the answers and texts no fixture holds (SOAP faults, property
# pages, fleet files, timestamps, /proc/[pid]/stat lines). scripts/fuzz.sh --merge minimises
# them with what the fuzzers found into fuzz/corpus/<target>/.
# Streaming targets read the last 4 bytes of an input as the chunk plan (fuzz/chunk_plan.h):
# their seeds get a 4-byte trailer so the fixture itself stays whole.
# Usage: fuzz/seed_corpus.sh OUT
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
fx=fixtures
mk() { mkdir -p "$out/$1"; }
# The inputs among FILE... (not the tests' expected outputs).
inputs() { local f; for f in "$@"; do case $f in *.expected*) ;; *) echo "$f" ;; esac; done; }
# copy TARGET FILE...: with a trailer for the streaming targets.
seed() {
  local t=$1; shift; mk "$t"
  local f
  for f in "$@"; do
    cp "$f" "$out/$t/$(basename "$f")"
    case $t in perfmon_csv|esxtop_csv|powercli_csv|sar_text|text_decode|xperf_dumper|wpa_precise|wpa_sampled) printf '\x01\x00\x00\x00' >>"$out/$t/$(basename "$f")" ;; esac
  done
}
text() { mk "$1"; printf '%s' "$3" >"$out/$1/$2"; }

seed perfmon_csv $(inputs $fx/perfmon/*.csv $fx/perfmon/*.tsv $fx/perfmon/*.blg $fx/seed003/*.csv)
seed esxtop_csv $fx/perfmon/esxtop.csv $fx/esxtop/app02-contention.csv $fx/report/fleet-esxtop.csv
seed text_decode $fx/perfmon/utf16le.csv $fx/perfmon/ru-cp1251.csv $fx/perfmon/de-cp1252.csv \
  $fx/perfmon/es-cp1252.tsv $fx/perfmon/utf8-bom.csv $fx/powercli/utf16le-24h.csv
seed powercli_csv $(inputs $fx/powercli/*.csv)
seed sar_text $fx/linux_proc/*.log
seed xperf_dumper $fx/etw/*.txt
seed wpa_precise $fx/etw/web01-precise.csv
seed wpa_sampled $fx/etw/web01-sampled.csv $fx/etw/wpa-sampled-no-units.csv
seed proc_stat $fx/linux_proc/proc_stat_*
# format_guess: a file of every format vrecon reads, and of those it refuses by name.
seed format_guess $fx/seed003/guest-web01.csv $fx/perfmon/utf16le.csv $fx/perfmon/binary.blg $fx/powercli/enus-type.csv \
  $fx/linux_proc/sar_header_12h.log $fx/etw/web01-precise.csv $fx/etw/web01-sampled.csv $(inputs $fx/unread/*.csv $fx/unread/*.txt $fx/unread/*.go $fx/unread/*.json)
# vsphere_soap: the real vCenter answers, the long ones cut to three counters / three samples so
# that they fit the target's input size.
seed vsphere_soap $fx/vsphere/vc901-service-content.xml $fx/vsphere/vc901-historical-interval.xml
awk -v RS='<PerfCounterInfo ' 'NR <= 4 { printf "%s%s", (NR > 1 ? RS : ""), $0 }' \
  $fx/vsphere/vc901-perfcounter-first40.xml >"$out/vsphere_soap/vc901-perfcounter-first3.xml"
printf '</val></propSet></returnval></RetrievePropertiesResponse>\n</soapenv:Body>\n</soapenv:Envelope>\n' \
  >>"$out/vsphere_soap/vc901-perfcounter-first3.xml"
sed -E 's/(<sampleInfoCSV>([^,]*,){5}[^,<]*)[^<]*/\1/; s/(<value>[^<,]*,[^<,]*,[^<,]*)[^<]*/\1/g' \
  $fx/vsphere/vc901-queryperf-csv-vm1085.xml >"$out/vsphere_soap/vc901-queryperf-csv-3samples.xml"

# counter_path: one header cell per line, the header of every Perfmon fixture.
mk counter_path
for f in $(inputs $fx/perfmon/*.csv $fx/esxtop/*.csv $fx/seed003/*.csv); do
  head -n 1 "$f" | tr -d '\r' | sed 's/","/\n/g; s/^"//; s/"$//' >"$out/counter_path/$(basename "$f").cells"
done

text proc_pid_stat sshd '4242 (sshd) S 1 1234 1234 0 -1 4194560 1077 0 0 0 250 75 0 0 20 0 1 0 98765 1 2 3'
text proc_pid_stat parens '77 (a) b (c)) R 1 1 1 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 3 0 0'

env=$'<?xml version="1.0" encoding="UTF-8"?>\n<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soapenv:Body>'
end='</soapenv:Body></soapenv:Envelope>'
text vsphere_soap fault.xml "$env<soapenv:Fault><faultcode>ServerFaultCode</faultcode><faultstring>The session is not authenticated.</faultstring><detail><NotAuthenticatedFault xmlns=\"urn:vim25\" xsi:type=\"NotAuthenticated\"></NotAuthenticatedFault></detail></soapenv:Fault>$end"
text vsphere_soap current-time.xml "$env<CurrentTimeResponse xmlns=\"urn:vim25\"><returnval>2026-11-22T18:00:00.356684Z</returnval></CurrentTimeResponse>$end"
text vsphere_soap option.xml "$env<QueryOptionsResponse xmlns=\"urn:vim25\"><returnval><key>config.vpxd.stats.maxQueryMetrics</key><value xsi:type=\"xsd:int\">64</value></returnval></QueryOptionsResponse>$end"
text vsphere_soap moref.xml "$env<CreateContainerViewResponse xmlns=\"urn:vim25\"><returnval type=\"ContainerView\">session[52a1]1</returnval></CreateContainerViewResponse>$end"
text vsphere_soap properties.xml "$env<RetrievePropertiesExResponse xmlns=\"urn:vim25\"><returnval><token>1</token><objects><obj type=\"VirtualMachine\">vm-101</obj><propSet><name>name</name><val xsi:type=\"xsd:string\">WEB01</val></propSet><propSet><name>config.hardware.numCPU</name><val xsi:type=\"xsd:int\">2</val></propSet></objects></returnval></RetrievePropertiesExResponse>$end"
text vsphere_soap queryperf-normal.xml "$env<QueryPerfResponse xmlns=\"urn:vim25\"><returnval xsi:type=\"PerfEntityMetric\"><entity type=\"VirtualMachine\">vm-42</entity><sampleInfo><timestamp>2026-11-02T10:00:40Z</timestamp><interval>20</interval></sampleInfo><sampleInfo><timestamp>2026-11-02T10:00:20Z</timestamp><interval>20</interval></sampleInfo><value xsi:type=\"PerfMetricIntSeries\"><id><counterId>2</counterId><instance></instance></id><value>500</value><value>400</value></value><value xsi:type=\"PerfMetricIntSeries\"><id><counterId>12</counterId><instance>0</instance></id><value>100</value></value></returnval></QueryPerfResponse>$end"

# fleet_toml: the full example of docs/config.md and a few shapes the checks refuse.
mk fleet_toml
sed -n '/^```toml$/,/^```$/p' docs/config.md | sed '1d;$d' >"$out/fleet_toml/config-md-example.toml"
text fleet_toml minimal.toml $'[[drop_folder]]\npath = "drop"\n'
text fleet_toml vcenter-file.toml $'window = 60\nsince = 3600\n[[vcenter]]\nurl = "https://vc/sdk"\nuser = "u"\npassword_file = "vc.pass"\nconcurrency = 0\n'
text fleet_toml unset-env.toml $'[[vcenter]]\nurl = "http://vc"\nuser = "u"\npassword_env = "UNSET_PW"\nca = "missing.pem"\n'

# timestamps: one per grammar and culture.
i=0
for t in '2026-11-01T10:00:00Z' '2026-11-01T10:00:00.123+05:30' '2026-11-01' '11/01/2026 10:00:00.123' \
         '1/5/2026 6:41' '2026-05-05 18:41:20' '5/5/2026 6:41:20 PM' '05.05.2026 18:41:20' '05/05/2026 18:41:20' \
         '5-5-2026 18:41:20' '2026/05/05 18:41:20' '5.5.2026. 18:41:20' '2026-05-05T18:41:20.0000000+02:00' '30s' '5m' '1.5h' '2d'; do
  text timestamps "t$((i++))" "$t"
done

# pdh_roundtrip: the input is a recipe (FuzzedDataProvider), any bytes make a file.
mk pdh_roundtrip
for n in 1 2 3 4; do head -c $((n * 64)) /dev/urandom >"$out/pdh_roundtrip/random$n"; done
