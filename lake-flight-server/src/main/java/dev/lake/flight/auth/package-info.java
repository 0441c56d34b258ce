/** Authentication: salted password hashes, basic login exchanged for bearer tokens signed with the cluster secret. */
package dev.lake.flight.auth;
