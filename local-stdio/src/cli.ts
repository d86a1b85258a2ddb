console.log("motebit-local: coming soon")
