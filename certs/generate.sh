#!/usr/bin/env bash
# TEST-ONLY signing material for doppel's fake cloud provider. These keys are public (committed to the
# repository); never trust these certificates anywhere but in tests.
#
# Regenerates every file in this folder with the openssl CLI. Run from anywhere: `bash certs/generate.sh`, or
# `bash certs/generate.sh dsa2048` for only the named signers (the CA is then kept, so the others stay valid).
# The DSA certificate cannot be minted by Node, hence openssl; `openssl ca` is used for all certificates
# because it is the only openssl 3.0 command that takes an explicit start date (identity documents may be
# signed at any emulator time, and the verifier checks signingTime against the certificate's validity).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

start=20000101000000Z
end=21991231235959Z
subject_base='/C=US/ST=Washington State/L=Seattle/O=doppel fake cloud (TEST ONLY)'

mkdir -p "$work/new"
: > "$work/index.txt"
cat > "$work/ca.cnf" <<CNF
[ ca ]
default_ca = fake_cloud

[ fake_cloud ]
dir = $work
database = $work/index.txt
new_certs_dir = $work/new
rand_serial = yes
policy = any
unique_subject = no
copy_extensions = none
preserve = yes
email_in_dn = no

[ any ]
countryName = optional
stateOrProvinceName = optional
localityName = optional
organizationName = optional
organizationalUnitName = optional
commonName = optional

[ ca_ext ]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash

[ signer_ext ]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
CNF

sign() { # sign <name> <issuer-cert|self> <issuer-key> <digest> <extensions>
  local name=$1 issuer_cert=$2 issuer_key=$3 digest=$4 ext=$5
  local args=(-batch -config "$work/ca.cnf" -in "$work/$name.csr" -out "$work/$name.crt" -notext
    -startdate "$start" -enddate "$end" -md "$digest" -extensions "$ext" -keyfile "$issuer_key")
  if [ "$issuer_cert" = self ]; then args+=(-selfsign); else args+=(-cert "$issuer_cert"); fi
  openssl ca "${args[@]}" 2> "$work/$name.log" || { cat "$work/$name.log" >&2; exit 1; }
  openssl x509 -in "$work/$name.crt" -out "$here/$name.pem"
}

names=("$@")
for name in "${names[@]}"; do
  case $name in ca|rsa2048|pkcs7|signature|dsa2048) ;; *) echo "unknown signer: $name" >&2; exit 2 ;; esac
done
wanted() { [ ${#names[@]} -eq 0 ] || [[ " ${names[*]} " == *" $1 "* ]]; }

rsa_key() { openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$here/$1.key" 2> /dev/null; }
request() { openssl req -new -key "$here/$1.key" -subj "$subject_base/CN=$2" -out "$work/$1.csr"; }

dsa_signer() { # dsa_signer <name> <bits> <q-bits> <digest>: a DSA key and its self-signed certificate
  openssl genpkey -genparam -algorithm DSA -pkeyopt "dsa_paramgen_bits:$2" -pkeyopt "dsa_paramgen_q_bits:$3" \
    -out "$work/$1.params" 2> /dev/null
  openssl genpkey -paramfile "$work/$1.params" -out "$here/$1.key" 2> /dev/null
  request "$1" "$1 TEST-ONLY"
  sign "$1" self "$here/$1.key" "$4" signer_ext
}

rsa_signer() { # rsa_signer <name> <digest>: an RSA-2048 key and its certificate from the CA
  rsa_key "$1"
  request "$1" "$1 TEST-ONLY"
  sign "$1" "$here/ca.pem" "$here/ca.key" "$2" signer_ext
}

# CA: RSA-2048, SHA-256, self-signed.
if wanted ca; then
  rsa_key ca
  request ca 'doppel fake cloud TEST-ONLY CA'
  sign ca self "$here/ca.key" sha256 ca_ext
fi
# rsa2048 signer: RSA-2048 key, certificate signed by the CA with SHA-256.
if wanted rsa2048; then rsa_signer rsa2048 sha256; fi
# pkcs7 signer: DSA-1024 key (160-bit q), dsaWithSHA1 self-signed certificate, as AWS's own.
if wanted pkcs7; then dsa_signer pkcs7 1024 160 sha1; fi
# signature signer: RSA-2048 key, certificate signed by the CA with sha1WithRSAEncryption (as AWS's are).
if wanted signature; then rsa_signer signature sha1; fi
# dsa2048 signer: DSA-2048 key (256-bit q), dsa_with_SHA256 self-signed certificate: the pkcs7 signer's
# layout with the larger key AWS's `dsa2048` name suggests.
if wanted dsa2048; then dsa_signer dsa2048 2048 256 sha256; fi

for name in ca rsa2048 pkcs7 signature dsa2048; do
  wanted "$name" || continue
  printf '%-10s %s\n' "$name" "$(openssl x509 -in "$here/$name.pem" -noout -subject -enddate | tr '\n' ' ')"
done
