#!/usr/bin/env bash
# TEST-ONLY signing material for doppel's fake cloud provider. These keys are public (committed to the
# repository); never trust these certificates anywhere but in tests.
#
# Regenerates every file in this folder with the openssl CLI. Run from anywhere: `bash certs/generate.sh`.
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

# CA: RSA-2048, SHA-256, self-signed.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$here/ca.key" 2> /dev/null
openssl req -new -key "$here/ca.key" -subj "$subject_base/CN=doppel fake cloud TEST-ONLY CA" -out "$work/ca.csr"
sign ca self "$here/ca.key" sha256 ca_ext

# rsa2048 signer: RSA-2048 key, certificate signed by the CA with SHA-256.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$here/rsa2048.key" 2> /dev/null
openssl req -new -key "$here/rsa2048.key" -subj "$subject_base/CN=rsa2048 TEST-ONLY" -out "$work/rsa2048.csr"
sign rsa2048 "$here/ca.pem" "$here/ca.key" sha256 signer_ext

# pkcs7 signer: DSA-1024 key (160-bit q), dsaWithSHA1 self-signed certificate, as AWS's own.
openssl genpkey -genparam -algorithm DSA -pkeyopt dsa_paramgen_bits:1024 -pkeyopt dsa_paramgen_q_bits:160 \
  -out "$work/dsa.params" 2> /dev/null
openssl genpkey -paramfile "$work/dsa.params" -out "$here/pkcs7.key" 2> /dev/null
openssl req -new -key "$here/pkcs7.key" -subj "$subject_base/CN=pkcs7 TEST-ONLY" -out "$work/pkcs7.csr"
sign pkcs7 self "$here/pkcs7.key" sha1 signer_ext

# signature signer: RSA-2048 key, certificate signed by the CA with sha1WithRSAEncryption (as AWS's are).
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$here/signature.key" 2> /dev/null
openssl req -new -key "$here/signature.key" -subj "$subject_base/CN=signature TEST-ONLY" -out "$work/signature.csr"
sign signature "$here/ca.pem" "$here/ca.key" sha1 signer_ext

for name in ca rsa2048 pkcs7 signature; do
  printf '%-10s %s\n' "$name" "$(openssl x509 -in "$here/$name.pem" -noout -subject -enddate | tr '\n' ' ')"
done
