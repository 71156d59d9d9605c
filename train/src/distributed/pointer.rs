//! The pointer `latest.json` (what workers follow) and the trainer lock `trainer.lock`.

use super::fence::Fence;
use super::{DistError, LOCK_KEY, POINTER_KEY, PROTOCOL, get_json, host_name, now_unix};
use crate::store::{Put, Store};
use serde::{Deserialize, Serialize};

/// What the trainer publishes for workers: the network to play with and how to play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pointer {
    pub protocol: u32,
    /// The epoch of the trainer that wrote it ([`super::fence`]).
    pub epoch: u64,
    /// Generations the trainer has finished; workers play for the next one.
    pub generation: u32,
    /// The generation of the network to play with.
    pub net: u32,
    /// Its key (`checkpoints/gen-NNNN/net.crnet`) and the SHA-256 of its bytes.
    pub checkpoint: String,
    pub sha256: String,
    /// The run's whole config (TOML): `[game]`, `[search]`, `[selfplay]` say how to play.
    pub config: String,
    /// When the trainer last said it is alive (seconds since the Unix epoch, on the
    /// trainer's clock). Workers only look at whether it changes, never compare it with
    /// their own clock.
    pub heartbeat: f64,
    /// The run reached its target: workers stop.
    pub finished: bool,
}

impl Pointer {
    /// Reads the pointer (`None` before the trainer published one); refuses a protocol this
    /// program does not know.
    pub fn read(store: &Store) -> Result<Option<Pointer>, DistError> {
        // The protocol first, so that a newer pointer with other fields is named as such.
        let Some(v) = get_json::<serde_json::Value>(store, POINTER_KEY)? else {
            return Ok(None);
        };
        let found = v.get("protocol").and_then(|p| p.as_u64()).unwrap_or(0) as u32;
        if found != PROTOCOL {
            return Err(DistError::Protocol {
                store: store.name().into(),
                key: POINTER_KEY.into(),
                found,
            });
        }
        serde_json::from_value(v)
            .map(Some)
            .map_err(|e| DistError::Corrupt {
                store: store.name().into(),
                key: POINTER_KEY.into(),
                what: e.to_string(),
            })
    }

    /// Publishes the pointer (replacing the previous one) if `fence` still holds the
    /// newest epoch.
    pub fn write(&self, fence: &Fence) -> Result<(), DistError> {
        let json = serde_json::to_vec_pretty(self).expect("a pointer serialises");
        fence.put(POINTER_KEY, json)
    }

    /// The order of pointers: a reader never goes back to a smaller one.
    pub fn order(&self) -> (u64, u32) {
        (self.epoch, self.generation)
    }
}

/// Who holds the run's trainer lock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lock {
    pub host: String,
    pub pid: u32,
    pub started: f64,
}

impl Lock {
    fn mine() -> Lock {
        Lock {
            host: host_name(),
            pid: std::process::id(),
            started: now_unix(),
        }
    }

    fn describe(&self) -> String {
        format!(
            "process {} on {}, started at Unix time {:.0}",
            self.pid, self.host, self.started
        )
    }

    /// Takes the run's trainer lock. A lock of a dead process of this machine (a trainer
    /// killed and restarted here) is taken over; any other holder refuses the start unless
    /// `take_over`.
    pub fn acquire(store: &Store, take_over: bool) -> Result<Lock, DistError> {
        let me = Lock::mine();
        let json = serde_json::to_vec_pretty(&me).expect("a lock serialises");
        if store.put_create(LOCK_KEY, json.clone())? == Put::Created {
            return Ok(me);
        }
        let holder: Option<Lock> = get_json(store, LOCK_KEY)?;
        let free = match &holder {
            None => true,
            Some(h) => {
                take_over
                    || (h.host == me.host && (h.pid == me.pid || !super::process_alive(h.pid)))
            }
        };
        if !free {
            return Err(DistError::TrainerRunning {
                store: store.name().into(),
                holder: holder.map_or_else(String::new, |h| h.describe()),
            });
        }
        store.put(LOCK_KEY, json)?;
        Ok(me)
    }

    /// Gives the lock up if it is still ours and no newer trainer took the run over.
    pub fn release(&self, store: &Store, fence: &Fence) {
        if fence.check().is_err() {
            return;
        }
        // serde_json may read a float back one ulp off: the start time is compared loosely.
        if let Ok(Some(h)) = get_json::<Lock>(store, LOCK_KEY)
            && h.host == self.host
            && h.pid == self.pid
            && (h.started - self.started).abs() < 1e-3
        {
            let _ = store.delete(LOCK_KEY);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Location;

    fn store(name: &str) -> (Store, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!(
            "crumble-pointer-{}-{name}-{}",
            std::process::id(),
            crate::store::conformance::unique_id()
        ));
        (Store::open(&Location::Local(dir.clone())).unwrap(), dir)
    }

    #[test]
    fn a_pointer_of_an_unknown_protocol_is_refused_by_name() {
        let (s, dir) = store("protocol");
        assert_eq!(Pointer::read(&s).unwrap(), None);
        let fence = Fence::take(&s, 0).unwrap();
        let p = Pointer {
            protocol: PROTOCOL,
            epoch: fence.epoch(),
            generation: 3,
            net: 2,
            checkpoint: "checkpoints/gen-0002/net.crnet".into(),
            sha256: "00".into(),
            config: String::new(),
            heartbeat: now_unix(),
            finished: false,
        };
        p.write(&fence).unwrap();
        assert_eq!(Pointer::read(&s).unwrap(), Some(p));
        s.put(
            POINTER_KEY,
            br#"{"protocol": 9, "something": "new"}"#.to_vec(),
        )
        .unwrap();
        let e = Pointer::read(&s).unwrap_err().to_string();
        assert!(e.contains("speaks protocol 9"), "{e}");
        s.put(POINTER_KEY, b"{not json".to_vec()).unwrap();
        let e = Pointer::read(&s).unwrap_err().to_string();
        assert!(e.contains("latest.json"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_lock_refuses_a_live_holder_and_takes_over_a_dead_one() {
        let (s, dir) = store("lock");
        let mine = Lock::acquire(&s, false).unwrap();
        // Held by a live process of this machine (the test's parent): refused.
        let live = Lock {
            pid: std::os::unix::process::parent_id(),
            ..mine.clone()
        };
        s.put(LOCK_KEY, serde_json::to_vec(&live).unwrap()).unwrap();
        let e = Lock::acquire(&s, false).unwrap_err().to_string();
        assert!(e.contains("another trainer holds this run"), "{e}");
        assert!(Lock::acquire(&s, true).is_ok());
        // Held by a process that is gone: taken over.
        let dead = Lock {
            pid: u32::MAX - 1,
            ..mine.clone()
        };
        s.put(LOCK_KEY, serde_json::to_vec(&dead).unwrap()).unwrap();
        let again = Lock::acquire(&s, false).unwrap();
        again.release(&s, &Fence::take(&s, 0).unwrap());
        assert_eq!(s.get(LOCK_KEY, 1 << 20).unwrap(), None);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
