/**
 * Authentication: salted password hashes checked under a failed-login throttle ({@link LoginGuard}), basic login
 * exchanged for bearer tokens signed with the cluster secret and bound to the user's token generation.
 */
package dev.lake.flight.auth;
