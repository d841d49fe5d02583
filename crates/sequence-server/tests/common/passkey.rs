//! A software authenticator for the passkey tests: what a browser and a
//! platform authenticator answer to `navigator.credentials.create()` and
//! `.get()` (WebAuthn Level 2 §6.1, §6.5; attestation "none"; ES256 keys
//! on P-256), as JSON with binary in base64url, the form the page sends.
//! A test may answer a challenge other than the one asked, from another
//! origin or with another user handle, to see the server refuse it.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use serde_cbor_2::Value as Cbor;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Flags of authenticator data: user present, user verified, attested
/// credential data included.
const UP: u8 = 0x01;
const UV: u8 = 0x04;
const AT: u8 = 0x40;

pub fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

pub fn unb64(text: &str) -> Vec<u8> {
    URL_SAFE_NO_PAD
        .decode(text.trim_end_matches('='))
        .expect("base64url")
}

/// One discoverable credential held by the authenticator.
pub struct SoftPasskey {
    key: SigningKey,
    /// The credential id.
    pub cred_id: Vec<u8>,
    /// The user handle the site gave (`user.id` of the creation options).
    pub handle: Vec<u8>,
    /// The RP id it was made for.
    pub rp_id: String,
    /// The signature counter.
    pub counter: u32,
}

fn random(n: usize) -> Vec<u8> {
    (0..n).map(|_| rand::random::<u8>()).collect()
}

fn client_data(kind: &str, challenge: &str, origin: &str) -> Vec<u8> {
    json!({"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": false})
        .to_string()
        .into_bytes()
}

impl SoftPasskey {
    /// A new key pair for `rp_id`, its credential id `cred_id` and user
    /// handle `handle`, registered nowhere yet.
    pub fn new(rp_id: &str, handle: Vec<u8>, cred_id: Vec<u8>) -> SoftPasskey {
        // 32 random bytes are a valid P-256 secret but with odds of 2^-32
        let key = std::iter::repeat_with(|| SigningKey::from_slice(&random(32)))
            .find_map(Result::ok)
            .expect("a key");
        SoftPasskey {
            key,
            cred_id,
            handle,
            rp_id: rp_id.to_string(),
            counter: 0,
        }
    }

    /// A new credential for the creation `options` (the begin's
    /// `options`) made in a page of `origin`: the passkey and the
    /// credential JSON to send to the finish.
    pub fn create(options: &Value, origin: &str) -> (SoftPasskey, Value) {
        SoftPasskey::create_with_id(options, origin, &random(32))
    }

    /// [`SoftPasskey::create`] with the credential id `cred_id`.
    pub fn create_with_id(options: &Value, origin: &str, cred_id: &[u8]) -> (SoftPasskey, Value) {
        let pk = &options["publicKey"];
        let rp_id = pk["rp"]["id"].as_str().expect("rp.id");
        let challenge = pk["challenge"].as_str().expect("challenge");
        let handle = unb64(pk["user"]["id"].as_str().expect("user.id"));
        let passkey = SoftPasskey::new(rp_id, handle, cred_id.to_vec());
        let credential = passkey.attestation(challenge, origin);
        (passkey, credential)
    }

    /// A passkey for `rp_id` that no site registered (a random handle).
    pub fn stranger(rp_id: &str) -> SoftPasskey {
        SoftPasskey::new(rp_id, random(16), random(32))
    }

    /// The answer to `create()` of this passkey for `challenge`
    /// (base64url) at `origin`: attestation "none".
    pub fn attestation(&self, challenge: &str, origin: &str) -> Value {
        // SEC1 uncompressed: 0x04 ‖ x ‖ y
        let point = self.key.verifying_key().to_sec1_point(false);
        let (x, y) = point.as_bytes()[1..].split_at(32);
        let cose: BTreeMap<Cbor, Cbor> = [
            (1, Cbor::Integer(2)),  // kty: EC2
            (3, Cbor::Integer(-7)), // alg: ES256
            (-1, Cbor::Integer(1)), // crv: P-256
            (-2, Cbor::Bytes(x.to_vec())),
            (-3, Cbor::Bytes(y.to_vec())),
        ]
        .into_iter()
        .map(|(k, v)| (Cbor::Integer(k), v))
        .collect();
        let mut auth = self.auth_data(UP | UV | AT);
        auth.extend([0u8; 16]); // AAGUID
        auth.extend((self.cred_id.len() as u16).to_be_bytes());
        auth.extend(&self.cred_id);
        auth.extend(serde_cbor_2::to_vec(&Cbor::Map(cose)).expect("COSE key"));
        let att: BTreeMap<Cbor, Cbor> = [
            ("fmt", Cbor::Text("none".into())),
            ("attStmt", Cbor::Map(BTreeMap::new())),
            ("authData", Cbor::Bytes(auth)),
        ]
        .into_iter()
        .map(|(k, v)| (Cbor::Text(k.into()), v))
        .collect();
        let att = serde_cbor_2::to_vec(&Cbor::Map(att)).expect("attestation object");
        self.credential(json!({
            "attestationObject": b64(&att),
            "clientDataJSON": b64(&client_data("webauthn.create", challenge, origin)),
        }))
    }

    /// The credential JSON of this passkey around the authenticator's
    /// `response` (of `create()` or `get()`).
    fn credential(&self, response: Value) -> Value {
        let id = b64(&self.cred_id);
        json!({
            "id": id,
            "rawId": id,
            "type": "public-key",
            "response": response,
            "extensions": {},
        })
    }

    /// `rpIdHash ‖ flags ‖ signCount`.
    fn auth_data(&self, flags: u8) -> Vec<u8> {
        let mut out = Sha256::digest(self.rp_id.as_bytes()).to_vec();
        out.push(flags);
        out.extend(self.counter.to_be_bytes());
        out
    }

    /// The answer to the request `options` (the sign-in begin's
    /// `options`) in a page of `origin`, the counter one more.
    pub fn get(&mut self, options: &Value, origin: &str) -> Value {
        let challenge = options["publicKey"]["challenge"]
            .as_str()
            .expect("challenge")
            .to_string();
        let handle = self.handle.clone();
        self.answer(&challenge, origin, &handle)
    }

    /// An answer signed for `challenge` (base64url) at `origin` with user
    /// handle `handle`, whatever was asked.
    pub fn answer(&mut self, challenge: &str, origin: &str, handle: &[u8]) -> Value {
        self.counter += 1;
        let auth = self.auth_data(UP | UV);
        let data = client_data("webauthn.get", challenge, origin);
        let mut signed = auth.clone();
        signed.extend(Sha256::digest(&data));
        let signature: Signature = self.key.sign(&signed);
        let signature = signature.to_der().as_bytes().to_vec();
        self.credential(json!({
            "authenticatorData": b64(&auth),
            "clientDataJSON": b64(&data),
            "signature": b64(&signature),
            "userHandle": b64(handle),
        }))
    }
}
